package dev.cairn.service.auth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;

/**
 * Verifies AWS Signature Version 4 as S3 uses it: in the {@code Authorization} header or in a
 * presigned URL's query, with every payload mode current SDKs send.
 *
 * <p>{@link #authenticate} checks everything known before the body: credential, scope (its region
 * the configured one, as S3 checks), time, signature. What depends on the body (payload hash, chunk and trailer signatures, trailer
 * checksums) is checked by the stream from {@link AuthResult#wrapBody} as it is read.
 *
 * <p>Canonical path and query: SDKs sign the path and query URI-encoded strictly; most send them
 * encoded the same way, so the wire form is the canonical form. When the wire form differs (a
 * client that leaves reserved characters unencoded), the strict re-encoding of the decoded form is
 * tried first, then the wire form byte for byte. Both are bound to the same decoded request.
 *
 * <p>Thread-safe. Secrets and signing keys never appear in exceptions; nothing is logged.
 */
public final class SigV4Verifier {
    /** The default largest accepted difference between the request's time and the clock: 15 minutes. */
    public static final Duration DEFAULT_MAX_CLOCK_SKEW = Duration.ofMinutes(15);
    /** The longest validity of a presigned URL: 7 days. */
    public static final long MAX_PRESIGNED_EXPIRES_SECONDS = 604_800;

    static final String ALGORITHM = "AWS4-HMAC-SHA256";
    static final String SERVICE = "s3";
    static final String TERMINATOR = "aws4_request";
    static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
    static final String STREAMING_SIGNED = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
    static final String STREAMING_UNSIGNED_TRAILER = "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
    static final String STREAMING_SIGNED_TRAILER = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";

    private static final String X_AMZ_ALGORITHM = SignatureClaims.X_AMZ_ALGORITHM;
    private static final String X_AMZ_CREDENTIAL = SignatureClaims.X_AMZ_CREDENTIAL;
    private static final String X_AMZ_SIGNATURE = SignatureClaims.X_AMZ_SIGNATURE;
    private static final String CONTENT_SHA256 = "x-amz-content-sha256";
    private static final int SIGNING_KEY_CACHE_LIMIT = 1024;

    private final CredentialsProvider credentials;
    private final String region;
    private final Clock clock;
    private final Duration maxClockSkew;
    private final Map<String, CachedSigningKey> signingKeys = new ConcurrentHashMap<>();
    private volatile LastSigningKey lastSigningKey;
    private final SignatureClaims claims = new SignatureClaims();
    private final VerifiedPresignedUrls verifiedUrls = new VerifiedPresignedUrls();

    /** @param region the one region requests must be signed for ({@code cairn.region}), as S3 checks it */
    public SigV4Verifier(CredentialsProvider credentials, String region, Clock clock, Duration maxClockSkew) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.region = Objects.requireNonNull(region, "region");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxClockSkew = Objects.requireNonNull(maxClockSkew, "maxClockSkew");
        if (maxClockSkew.isNegative()) {
            throw new IllegalArgumentException("maxClockSkew must not be negative: " + maxClockSkew);
        }
    }

    /**
     * Authenticates {@code request}. A request without an {@code Authorization} header and without
     * presigned query parameters is anonymous: the result says so and the caller decides.
     *
     * @throws AuthException when the request is signed but not validly, or is malformed
     */
    public AuthResult authenticate(SignedRequest request) {
        String authorization = request.firstHeader("authorization");
        if (authorization == null && request.rawQuery() != null) {
            VerifiedPresignedUrls.Entry seen = verifiedUrls.get(request.rawQuery());
            if (seen != null && seen.covers(request)) {
                return verify(request, null, seen.claim(), seen);
            }
        }
        List<CanonicalRequest.QueryParam> query = CanonicalRequest.parseQuery(request.rawQuery());
        boolean presigned = isPresigned(query);
        if (authorization == null && !presigned) {
            if (isPresignedV2(query)) {
                throw AuthException.invalidRequest("The authorization mechanism you have provided is not supported. "
                        + "Please use " + ALGORITHM + ".");
            }
            return anonymous(request);
        }
        if (authorization != null && presigned) {
            throw AuthException.invalidArgument("Only one auth mechanism allowed; only the X-Amz-Algorithm query "
                    + "parameter or the Authorization header should be specified");
        }
        ClaimedSignature signature = presigned ? claims.fromQuery(query) : claims.fromHeader(request, authorization);
        return verify(request, query, signature, null);
    }

    private static boolean isPresigned(List<CanonicalRequest.QueryParam> query) {
        for (CanonicalRequest.QueryParam param : query) {
            String name = param.rawName();
            if (name.equals(X_AMZ_SIGNATURE) || name.equals(X_AMZ_ALGORITHM) || name.equals(X_AMZ_CREDENTIAL)) {
                return true;
            }
        }
        return false;
    }

    /** A URL presigned with Signature Version 2 (s3cmd's {@code signurl} makes them), which is not accepted. */
    private static boolean isPresignedV2(List<CanonicalRequest.QueryParam> query) {
        boolean key = false;
        boolean signature = false;
        for (CanonicalRequest.QueryParam param : query) {
            key |= param.rawName().equals("AWSAccessKeyId");
            signature |= param.rawName().equals("Signature");
        }
        return key && signature;
    }

    private AuthResult anonymous(SignedRequest request) {
        String contentSha256 = request.firstHeader(CONTENT_SHA256);
        PayloadMode mode = contentSha256 == null ? PayloadMode.UNSIGNED : payloadMode(contentSha256.trim());
        if (mode == PayloadMode.STREAMING_SIGNED || mode == PayloadMode.STREAMING_SIGNED_TRAILER) {
            throw AuthException.accessDenied("A signed streaming payload requires a signed request");
        }
        return new AuthResult(null, mode, decodedContentLength(request, mode), null,
                mode == PayloadMode.SIGNED ? contentSha256.trim() : null, declaredTrailers(request, mode));
    }

    /**
     * Checks a claim. {@code seen}: the same presigned URL verified before ({@code query} may then be
     * null); its signature is not computed again when it verified under the signing key in force now.
     */
    private AuthResult verify(SignedRequest request, List<CanonicalRequest.QueryParam> query, ClaimedSignature sig,
                              VerifiedPresignedUrls.Entry seen) {
        if (!sig.region().equals(region)) {
            // S3's words: the client learns which region to sign for.
            String wrong = "the region '" + sig.region() + "' is wrong; expecting '" + region + "'";
            throw (sig.presigned()
                    ? AuthException.queryMalformed("Error parsing the X-Amz-Credential parameter; " + wrong)
                    : AuthException.headerMalformed("The authorization header is malformed; " + wrong))
                    .withRegion(region);
        }
        if (!sig.amzDate().startsWith(sig.scopeDate())) {
            throw SignatureClaims.malformed(sig.presigned(), "Invalid credential date \"" + sig.scopeDate()
                    + "\". This date is not the same as X-Amz-Date: \"" + sig.amzDate().substring(0, 8) + "\".");
        }
        String secret = credentials.secretKey(sig.accessKey()).orElseThrow(() -> new AuthException(
                "InvalidAccessKeyId", 403, "The AWS Access Key Id you provided does not exist in our records."));
        checkTime(sig);
        checkUnsignedHeaders(request, sig);

        String contentSha256 = request.firstHeader(CONTENT_SHA256);
        String payloadHash;
        PayloadMode mode;
        if (sig.presigned()) {
            mode = contentSha256 == null ? PayloadMode.UNSIGNED : payloadMode(contentSha256.trim());
            payloadHash = contentSha256 != null && sig.signedHeaderNames().contains(CONTENT_SHA256)
                    ? contentSha256.trim() : UNSIGNED_PAYLOAD;
        } else {
            if (contentSha256 == null) {
                throw AuthException.invalidRequest("Missing required header for this request: x-amz-content-sha256");
            }
            payloadHash = contentSha256.trim();
            mode = payloadMode(payloadHash);
        }
        List<String> trailers = declaredTrailers(request, mode);
        long decodedLength = decodedContentLength(request, mode);

        byte[] signingKey = signingKey(sig, secret);
        if (seen == null || seen.signingKey() != signingKey || !seen.payloadHash().equals(payloadHash)) {
            if (!signatureMatches(request, query != null ? query : CanonicalRequest.parseQuery(request.rawQuery()),
                    sig, signingKey, payloadHash)) {
                throw AuthException.signatureDoesNotMatch("The request signature we calculated does not match the "
                        + "signature you provided. Check your key and signing method.");
            }
            if (sig.presigned()) {
                verifiedUrls.put(request, payloadHash, sig, signingKey);
            }
        }
        ChunkSigningContext chunkContext = mode.awsChunked() && mode.payloadSigned()
                ? new ChunkSigningContext(signingKey, sig.signature(), sig.amzDate(), sig.scope()) : null;
        return new AuthResult(sig.accessKey(), mode, decodedLength, chunkContext,
                mode == PayloadMode.SIGNED ? payloadHash : null, trailers);
    }

    /** Whether the claimed signature is that of the request in one of the forms a client may have signed. */
    private static boolean signatureMatches(SignedRequest request, List<CanonicalRequest.QueryParam> query,
                                            ClaimedSignature sig, byte[] signingKey, String payloadHash) {
        Mac mac = SigV4Crypto.threadMac(signingKey);
        String excluded = sig.presigned() ? X_AMZ_SIGNATURE : null;
        String uri = CanonicalRequest.canonicalUri(request.rawPath(), true);
        SignatureWorkspace workspace = SignatureWorkspace.get();
        workspace.canonicalRequest(request.method(), uri, query, excluded, request, sig.signedHeaderNames(),
                sig.signedHeaders(), payloadHash);
        boolean matches = workspace.signatureMatches(mac, sig.amzDate(), sig.scopeDate(), sig.region(),
                sig.signature());
        if (!matches) {
            // The rarer forms a client may have signed: built as strings, tried in turn.
            String canonicalHeaders = CanonicalRequest.canonicalHeaders(request, sig.signedHeaderNames());
            String queryString = CanonicalRequest.canonicalQuery(query, excluded, true);
            String rawUri = CanonicalRequest.canonicalUri(request.rawPath(), false);
            String rawQuery = CanonicalRequest.canonicalQuery(query, excluded, false);
            boolean rawDiffers = !rawUri.equals(uri) || !rawQuery.equals(queryString);
            String method = request.method();
            matches = rawDiffers && matches(mac, sig, method, rawUri, rawQuery, canonicalHeaders, payloadHash);
            String utf8Headers = CanonicalRequest.redecodeLatin1AsUtf8(canonicalHeaders);
            if (!matches && utf8Headers != null) {
                matches = matches(mac, sig, method, uri, queryString, utf8Headers, payloadHash)
                        || rawDiffers && matches(mac, sig, method, rawUri, rawQuery, utf8Headers, payloadHash);
            }
        }
        return matches;
    }

    private static boolean matches(Mac mac, ClaimedSignature sig, String method, String uri, String query,
                                   String canonicalHeaders, String payloadHash) {
        SignatureWorkspace workspace = SignatureWorkspace.get();
        workspace.canonicalRequest(CanonicalRequest.build(method, uri, query, canonicalHeaders, sig.signedHeaders(),
                payloadHash));
        return workspace.signatureMatches(mac, sig.amzDate(), sig.scopeDate(), sig.region(), sig.signature());
    }

    private void checkTime(ClaimedSignature sig) {
        Instant now = clock.instant();
        if (sig.presigned()) {
            if (sig.time().minus(maxClockSkew).isAfter(now)) {
                throw AuthException.accessDenied("Request is not valid yet");
            }
            if (now.isAfter(sig.time().plusSeconds(sig.expiresSeconds()))) {
                throw AuthException.accessDenied("Request has expired");
            }
            return;
        }
        Duration skew = Duration.between(sig.time(), now).abs();
        if (skew.compareTo(maxClockSkew) > 0) {
            throw new AuthException("RequestTimeTooSkewed", 403,
                    "The difference between the request time and the current time is too large.");
        }
    }

    /** Every x-amz-* header sent must be signed, so that none can be added to a signed request. */
    private static void checkUnsignedHeaders(SignedRequest request, ClaimedSignature sig) {
        List<String> signed = sig.signedHeaderNames();
        List<String> unsigned = null;
        for (String name : request.headers().keySet()) {
            if (name.startsWith("x-amz-") && !signed.contains(name)
                    && !(sig.presigned() && name.equals(CONTENT_SHA256))) {
                if (unsigned == null) {
                    unsigned = new ArrayList<>();
                }
                unsigned.add(name);
            }
        }
        if (unsigned != null) {
            unsigned.sort(null);
            throw AuthException.accessDenied("There were headers present in the request which were not signed: "
                    + String.join(", ", unsigned));
        }
    }

    static PayloadMode payloadMode(String contentSha256) {
        switch (contentSha256) {
            case UNSIGNED_PAYLOAD:
                return PayloadMode.UNSIGNED;
            case STREAMING_SIGNED:
                return PayloadMode.STREAMING_SIGNED;
            case STREAMING_UNSIGNED_TRAILER:
                return PayloadMode.STREAMING_UNSIGNED_TRAILER;
            case STREAMING_SIGNED_TRAILER:
                return PayloadMode.STREAMING_SIGNED_TRAILER;
            default:
                break;
        }
        if (SigV4Crypto.isLowerHex(contentSha256, 64)
                || SigV4Crypto.isLowerHex(contentSha256.toLowerCase(Locale.ROOT), 64)) {
            return PayloadMode.SIGNED;
        }
        if (contentSha256.startsWith("STREAMING-")) {
            throw new AuthException("NotImplemented", 501,
                    "The x-amz-content-sha256 payload mode " + contentSha256 + " is not implemented");
        }
        throw AuthException.invalidArgument("x-amz-content-sha256 must be UNSIGNED-PAYLOAD, "
                + "STREAMING-AWS4-HMAC-SHA256-PAYLOAD, STREAMING-UNSIGNED-PAYLOAD-TRAILER, "
                + "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER or a valid sha256 value.");
    }

    static long decodedContentLength(SignedRequest request, PayloadMode mode) {
        String header = mode.awsChunked() ? "x-amz-decoded-content-length" : "content-length";
        String value = request.firstHeader(header);
        if (value == null) {
            return -1;
        }
        try {
            long length = Long.parseLong(value.trim());
            if (length >= 0) {
                return length;
            }
        } catch (NumberFormatException e) {
            // Falls through to the error below.
        }
        throw AuthException.invalidArgument("The " + header + " header is not a valid length");
    }

    /** The trailer names announced in x-amz-trailer, lowercase; checksum trailers must be known. */
    static List<String> declaredTrailers(SignedRequest request, PayloadMode mode) {
        if (!mode.hasTrailer()) {
            return List.of();
        }
        List<String> names = new ArrayList<>(2);
        for (String value : request.headerValues("x-amz-trailer")) {
            for (String name : value.split(",")) {
                String trimmed = name.trim().toLowerCase(Locale.ROOT);
                if (trimmed.isEmpty()) {
                    continue;
                }
                if (ChecksumAlgorithm.isChecksumHeader(trimmed)
                        && ChecksumAlgorithm.fromHeaderName(trimmed).isEmpty()) {
                    throw AuthException.invalidRequest("The value specified in the x-amz-trailer header is not "
                            + "supported: " + trimmed);
                }
                if (trimmed.equals(AwsChunkedInputStream.TRAILER_SIGNATURE)) {
                    throw AuthException.invalidRequest("x-amz-trailer must not name " + trimmed);
                }
                if (!names.contains(trimmed)) {
                    names.add(trimmed);
                }
            }
        }
        return List.copyOf(names);
    }

    private record CachedSigningKey(String secret, byte[] key) {
    }

    /** The signing key used last: nearly every request of a day is signed under it. */
    private record LastSigningKey(String accessKey, String scopeDate, String region, String secret, byte[] key) {
        boolean isFor(ClaimedSignature sig, String secret) {
            return scopeDate.equals(sig.scopeDate()) && accessKey.equals(sig.accessKey())
                    && region.equals(sig.region()) && this.secret.equals(secret);
        }
    }

    private byte[] signingKey(ClaimedSignature sig, String secret) {
        LastSigningKey last = lastSigningKey;
        if (last != null && last.isFor(sig, secret)) {
            return last.key();
        }
        byte[] key = cachedSigningKey(sig, secret);
        // Replaced whole, so that a new date, key or secret is seen with its own signing key only.
        lastSigningKey = new LastSigningKey(sig.accessKey(), sig.scopeDate(), sig.region(), secret, key);
        return key;
    }

    private byte[] cachedSigningKey(ClaimedSignature sig, String secret) {
        String cacheKey = sig.accessKey() + '/' + sig.scope();
        CachedSigningKey cached = signingKeys.get(cacheKey);
        if (cached != null && cached.secret().equals(secret)) {
            return cached.key();
        }
        byte[] key = SigV4Crypto.signingKey(secret, sig.scopeDate(), sig.region(), SERVICE);
        if (signingKeys.size() >= SIGNING_KEY_CACHE_LIMIT) {
            signingKeys.clear();
        }
        signingKeys.put(cacheKey, new CachedSigningKey(secret, key));
        return key;
    }
}
