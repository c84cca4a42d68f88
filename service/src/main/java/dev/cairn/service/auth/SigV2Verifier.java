package dev.cairn.service.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies AWS Signature Version 2 as S3 defines it, for the clients that still send it: in the
 * {@code Authorization: AWS AccessKeyId:Signature} header, or in a presigned URL's
 * {@code AWSAccessKeyId}, {@code Expires} and {@code Signature} parameters. The signature is the
 * base64 HMAC-SHA1 of {@link SigV2StringToSign}. The body is not signed: it is read as sent
 * (verified against {@code x-amz-content-sha256} when that carries a hash); aws-chunked signed
 * payloads are Version 4's alone.
 *
 * <p>Thread-safe. Secrets never appear in exceptions; nothing is logged.
 */
public final class SigV2Verifier {
    static final String HEADER_PREFIX = "AWS ";
    private static final String ACCESS_KEY_PARAM = "AWSAccessKeyId";
    private static final String SIGNATURE_PARAM = "Signature";
    private static final String EXPIRES_PARAM = "Expires";
    private static final ThreadLocal<Mac> HMAC_SHA1 = ThreadLocal.withInitial(() -> {
        try {
            return Mac.getInstance("HmacSHA1");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 is not available", e);
        }
    });

    private final CredentialsProvider credentials;
    private final Clock clock;
    private final Duration maxClockSkew;

    public SigV2Verifier(CredentialsProvider credentials, Clock clock, Duration maxClockSkew) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxClockSkew = Objects.requireNonNull(maxClockSkew, "maxClockSkew");
    }

    /**
     * Whether a request claims Signature Version 2: its Authorization header is {@code AWS …}, or,
     * without one, its query names an {@code AWSAccessKeyId} and no Version 4 credential.
     */
    public static boolean isSignedV2(String authorization, String rawQuery) {
        if (authorization != null) {
            return authorization.startsWith(HEADER_PREFIX);
        }
        // A presigned Version 4 URL names its credential early: found first, it ends the look at once.
        return rawQuery != null && !rawQuery.contains("X-Amz-Credential=") && rawQuery.contains(ACCESS_KEY_PARAM + "=");
    }

    /** S3's answer to a Version 2 request where only Version 4 is accepted. */
    public static AuthException unsupported() {
        return AuthException.invalidRequest("The authorization mechanism you have provided is not supported. "
                + "Please use " + SigV4Verifier.ALGORITHM + ".");
    }

    /**
     * Authenticates a request that {@link #isSignedV2} claims.
     *
     * @param bucketInHost the bucket a virtual-hosted request names in its host; null for path-style
     * @throws AuthException when the claim is malformed, expired, skewed or names an unknown key
     * @throws SigV2Mismatch when the signature is not the request's
     */
    public AuthResult authenticate(SignedRequest request, String bucketInHost) {
        String authorization = request.firstHeader("authorization");
        List<SigV2StringToSign.Param> query = SigV2StringToSign.parseQuery(request.rawQuery());
        Map<String, String> presigned = presignedParams(query);
        boolean isPresigned = authorization == null;
        String accessKey;
        String signature;
        String dateSlot;
        if (isPresigned) {
            accessKey = presigned.get(ACCESS_KEY_PARAM);
            signature = presigned.get(SIGNATURE_PARAM);
            dateSlot = presigned.get(EXPIRES_PARAM);
            if (accessKey == null || signature == null || dateSlot == null) {
                throw AuthException.accessDenied("Query-string authentication requires the Signature, Expires and "
                        + "AWSAccessKeyId parameters");
            }
        } else {
            if (!presigned.isEmpty() || hasV4Query(query)) {
                throw AuthException.invalidArgument("Only one auth mechanism allowed; only the X-Amz-Algorithm query "
                        + "parameter, Signature query string parameter or the Authorization header should be specified");
            }
            String value = authorization.trim();
            String claim = value.length() > HEADER_PREFIX.length() ? value.substring(HEADER_PREFIX.length()).trim() : "";
            int colon = claim.lastIndexOf(':');
            if (colon <= 0 || colon == claim.length() - 1) {
                throw AuthException.invalidArgument("AWS authorization header is invalid.  Expected "
                        + "AwsAccessKeyId:signature");
            }
            accessKey = claim.substring(0, colon).trim();
            signature = claim.substring(colon + 1).trim();
            String amzDate = request.firstHeader("x-amz-date");
            dateSlot = amzDate != null ? "" : request.firstHeader("date");
            checkSkew(amzDate != null ? amzDate : dateSlot);
        }
        String secret = credentials.secretKey(accessKey).orElseThrow(() -> new AuthException(
                "InvalidAccessKeyId", 403, "The AWS Access Key Id you provided does not exist in our records."));
        if (isPresigned) {
            checkExpires(dateSlot);
        }
        AuthResult result = payload(request, accessKey);
        checkSignature(request, query, bucketInHost, isPresigned, dateSlot, accessKey, secret, signature);
        return result;
    }

    private static Map<String, String> presignedParams(List<SigV2StringToSign.Param> query) {
        Map<String, String> found = new TreeMap<>();
        for (SigV2StringToSign.Param p : query) {
            String name = p.rawName();
            if (name.equals(ACCESS_KEY_PARAM) || name.equals(SIGNATURE_PARAM) || name.equals(EXPIRES_PARAM)) {
                found.putIfAbsent(name, p.value());
            }
        }
        // Expires alone is a plain parameter of other requests; it takes part only beside the other two.
        if (found.size() == 1 && found.containsKey(EXPIRES_PARAM)) {
            found.clear();
        }
        return found;
    }

    private static boolean hasV4Query(List<SigV2StringToSign.Param> query) {
        for (SigV2StringToSign.Param p : query) {
            if (p.rawName().equals(SignatureClaims.X_AMZ_SIGNATURE) || p.rawName().equals(SignatureClaims.X_AMZ_CREDENTIAL)) {
                return true;
            }
        }
        return false;
    }

    private void checkSkew(String date) {
        Instant time = parseDate(date);
        if (Duration.between(time, clock.instant()).abs().compareTo(maxClockSkew) > 0) {
            throw new AuthException("RequestTimeTooSkewed", 403,
                    "The difference between the request time and the current time is too large.");
        }
    }

    private void checkExpires(String expires) {
        long epochSeconds;
        try {
            epochSeconds = Long.parseLong(expires.trim());
        } catch (NumberFormatException e) {
            throw AuthException.accessDenied("Invalid date (should be seconds since epoch): " + expires);
        }
        if (clock.instant().getEpochSecond() > epochSeconds) {
            throw AuthException.accessDenied("Request has expired");
        }
    }

    /** The Date or x-amz-date of a header-signed request: RFC 1123, or ISO 8601 basic as Version 4's. */
    private static Instant parseDate(String value) {
        if (value != null) {
            String v = value.trim();
            try {
                return ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            } catch (DateTimeException e) {
                if (v.length() == 16) {
                    return SignatureClaims.parseAmzDate(v, false);
                }
            }
        }
        throw AuthException.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
    }

    /**
     * Compares the claimed signature with that of the request in the forms clients sign: sub-resource
     * values decoded (S3, botocore) or as sent (s3cmd); header text as UTF-8 when the server read it
     * as ISO-8859-1.
     */
    private static void checkSignature(SignedRequest request, List<SigV2StringToSign.Param> query, String bucketInHost,
                                       boolean presigned, String dateSlot, String accessKey, String secret,
                                       String signature) {
        String contentMd5 = headerOrQuery(request, query, "content-md5", presigned);
        String contentType = headerOrQuery(request, query, "content-type", presigned);
        String head = SigV2StringToSign.head(request.method(), contentMd5, contentType, dateSlot)
                + SigV2StringToSign.amzHeaders(presigned ? withAmzQuery(request, query) : request.headers());
        Mac mac = HMAC_SHA1.get();
        try {
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 key refused", e);
        }
        byte[] claimed = signature.getBytes(StandardCharsets.ISO_8859_1);
        String path = request.rawPath();
        // A path-style request that names a bucket alone is signed as "/bucket/" (botocore) or as sent.
        boolean bucketAlone = bucketInHost == null && path.length() > 1 && path.indexOf('/', 1) < 0;
        String resource = SigV2StringToSign.resource(bucketInHost, bucketAlone ? path + '/' : path, query, true);
        for (String candidatePath : bucketAlone ? List.of(path + '/', path) : List.of(path)) {
            String decoded = SigV2StringToSign.resource(bucketInHost, candidatePath, query, true);
            if (matches(mac, head + decoded, claimed)) {
                return;
            }
            String raw = SigV2StringToSign.resource(bucketInHost, candidatePath, query, false);
            if (!raw.equals(decoded) && matches(mac, head + raw, claimed)) {
                return;
            }
            String utf8Head = CanonicalRequest.redecodeLatin1AsUtf8(head);
            if (utf8Head != null && matches(mac, utf8Head + decoded, claimed)) {
                return;
            }
        }
        throw new SigV2Mismatch(accessKey, head + resource, signature);
    }

    private static boolean matches(Mac mac, String stringToSign, byte[] claimed) {
        byte[] expected = Base64.getEncoder().encode(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        return MessageDigest.isEqual(expected, claimed);
    }

    /** A presigned URL may carry Content-MD5 and Content-Type as parameters (botocore puts them there). */
    private static String headerOrQuery(SignedRequest request, List<SigV2StringToSign.Param> query, String name,
                                        boolean presigned) {
        String header = request.firstHeader(name);
        if (header != null || !presigned) {
            return header;
        }
        for (SigV2StringToSign.Param p : query) {
            if (p.name().equalsIgnoreCase(name)) {
                return p.value();
            }
        }
        return null;
    }

    /** The x-amz-* headers of a presigned request, with the x-amz-* parameters of its URL that no header repeats. */
    private static Map<String, List<String>> withAmzQuery(SignedRequest request, List<SigV2StringToSign.Param> query) {
        Map<String, List<String>> merged = null;
        for (SigV2StringToSign.Param p : query) {
            String name = p.name().toLowerCase(java.util.Locale.ROOT);
            if (name.startsWith("x-amz-") && request.firstHeader(name) == null) {
                if (merged == null) {
                    merged = new TreeMap<>(request.headers());
                }
                merged.put(name, List.of(p.value()));
            }
        }
        return merged == null ? request.headers() : merged;
    }

    /** How the body is read: as sent, or checked against the hash x-amz-content-sha256 gives. */
    private static AuthResult payload(SignedRequest request, String accessKey) {
        String contentSha256 = request.firstHeader("x-amz-content-sha256");
        PayloadMode mode = contentSha256 == null ? PayloadMode.UNSIGNED : SigV4Verifier.payloadMode(contentSha256.trim());
        if (mode.awsChunked() && mode.payloadSigned()) {
            throw AuthException.invalidRequest("A signed streaming payload (" + contentSha256.trim()
                    + ") requires " + SigV4Verifier.ALGORITHM);
        }
        return new AuthResult(accessKey, mode, SigV4Verifier.decodedContentLength(request, mode), null,
                mode == PayloadMode.SIGNED ? contentSha256.trim() : null, SigV4Verifier.declaredTrailers(request, mode));
    }
}
