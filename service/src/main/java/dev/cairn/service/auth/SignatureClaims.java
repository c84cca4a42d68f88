package dev.cairn.service.auth;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads what a signed request claims (credential, scope, signed headers, signature, time) from its
 * {@code Authorization} header or its presigned query, refusing a malformed claim with S3's error.
 * Nothing here checks the signature: {@link SigV4Verifier} does.
 *
 * <p>Thread-safe. Keeps recent signed-header lists and the last Authorization prefix parsed, so a
 * client's next request is not parsed again.
 */
final class SignatureClaims {
    static final String X_AMZ_ALGORITHM = "X-Amz-Algorithm";
    static final String X_AMZ_CREDENTIAL = "X-Amz-Credential";
    static final String X_AMZ_SIGNATURE = "X-Amz-Signature";
    private static final String X_AMZ_DATE = "X-Amz-Date";
    private static final String X_AMZ_EXPIRES = "X-Amz-Expires";
    private static final String X_AMZ_SIGNED_HEADERS = "X-Amz-SignedHeaders";
    private static final int SIGNED_HEADERS_CACHE_LIMIT = 256;

    private final Map<String, List<String>> signedHeaderLists = new ConcurrentHashMap<>();
    private volatile AuthorizationPrefix lastAuthorizationPrefix;

    /** The claim of a request signed in its {@code Authorization} header. */
    ClaimedSignature fromHeader(SignedRequest request, String authorization) {
        String value = authorization.trim();
        if (!value.startsWith(SigV4Verifier.ALGORITHM + " ")) {
            if (value.startsWith("AWS ") || value.startsWith("AWS4-")) {
                throw AuthException.invalidArgument("Unsupported Authorization Type; use " + SigV4Verifier.ALGORITHM);
            }
            throw AuthException.invalidArgument("Unsupported Authorization Type");
        }
        AuthorizationPrefix known = lastAuthorizationPrefix;
        if (known != null && known.isPrefixOf(value)) {
            return headerClaim(request, known.scope(), known.signedHeaders(), known.signedHeaderNames(),
                    value.substring(known.prefix().length()));
        }
        String credential = null;
        String signedHeaders = null;
        String signature = null;
        String lastKey = null;
        int start = SigV4Verifier.ALGORITHM.length() + 1;
        int end = value.length();
        // Empty components at the very end are ignored, as String.split drops them.
        while (end > start && value.charAt(end - 1) == ',') {
            end--;
        }
        boolean empty = start == value.length();
        while (start < end || empty) {
            empty = false;
            int comma = value.indexOf(',', start);
            int itemEnd = comma < 0 || comma > end ? end : comma;
            int eq = value.indexOf('=', start);
            String key = eq < 0 || eq >= itemEnd ? "" : value.substring(start, eq).trim();
            if (key.isEmpty()) {
                throw AuthException.headerMalformed("The authorization header is malformed; '"
                        + value.substring(start, itemEnd).trim() + "' is not a key=value pair");
            }
            String val = value.substring(eq + 1, itemEnd).trim();
            lastKey = key;
            switch (key) {
                case "Credential" -> credential = val;
                case "SignedHeaders" -> signedHeaders = val;
                case "Signature" -> signature = val;
                default -> throw AuthException.headerMalformed(
                        "The authorization header is malformed; unexpected component " + key);
            }
            start = itemEnd + 1;
        }
        if (credential == null || signedHeaders == null || signature == null) {
            throw AuthException.headerMalformed("The authorization header is malformed; it must contain "
                    + "Credential, SignedHeaders and Signature");
        }
        String[] scope = parseCredential(credential, false);
        ClaimedSignature claim = headerClaim(request, scope, signedHeaders, null, signature);
        // Kept only when the signature is the header's last component and nothing follows it.
        AuthorizationPrefix prefix = lastKey.equals("Signature") && end == value.length()
                ? AuthorizationPrefix.of(value, claim) : null;
        if (prefix != null) {
            lastAuthorizationPrefix = prefix;
        }
        return claim;
    }

    /** The claim of an Authorization header whose components are parsed; {@code names} null: not yet. */
    private ClaimedSignature headerClaim(SignedRequest request, String[] scope, String signedHeaders,
                                         List<String> names, String signature) {
        String amzDate = request.firstHeader("x-amz-date");
        Instant time;
        if (amzDate != null) {
            time = parseAmzDate(amzDate.trim(), false);
            amzDate = amzDate.trim();
        } else {
            time = parseDateHeader(request.firstHeader("date"));
            amzDate = formatAmzDate(time);
            if (!List.of(signedHeaders.split(";")).contains("date")) {
                throw AuthException.accessDenied("The Date header must be signed when x-amz-date is absent");
            }
        }
        // Known already when the header matched a known prefix (names given).
        if (names == null && !isLowerHexSignature(signature)) {
            throw AuthException.headerMalformed("The authorization header is malformed; the signature must be "
                    + "64 lowercase hexadecimal characters");
        }
        return new ClaimedSignature(scope[0], scope[1], scope[2], signedHeaders,
                names != null ? names : parseSignedHeaders(signedHeaders, false), signature, amzDate, time, false, 0);
    }

    /** The claim of a presigned URL, from its parsed query. */
    ClaimedSignature fromQuery(List<CanonicalRequest.QueryParam> query) {
        String algorithm = null;
        String credential = null;
        String amzDate = null;
        String expires = null;
        String signedHeaders = null;
        String signature = null;
        for (CanonicalRequest.QueryParam param : query) {
            String value = UriEncoding.decode(param.rawValue(), true);
            switch (param.rawName()) {
                case X_AMZ_ALGORITHM -> algorithm = value;
                case X_AMZ_CREDENTIAL -> credential = value;
                case X_AMZ_DATE -> amzDate = value;
                case X_AMZ_EXPIRES -> expires = value;
                case X_AMZ_SIGNED_HEADERS -> signedHeaders = value;
                case X_AMZ_SIGNATURE -> signature = value;
                default -> {
                }
            }
        }
        if (algorithm == null || credential == null || amzDate == null || expires == null || signedHeaders == null
                || signature == null) {
            throw AuthException.queryMalformed("Query-string authentication version 4 requires the X-Amz-Algorithm, "
                    + "X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires "
                    + "parameters.");
        }
        if (!algorithm.equals(SigV4Verifier.ALGORITHM)) {
            throw AuthException.queryMalformed("X-Amz-Algorithm only supports \"" + SigV4Verifier.ALGORITHM + "\"");
        }
        String[] scope = parseCredential(credential, true);
        Instant time = parseAmzDate(amzDate, true);
        long expiresSeconds;
        try {
            expiresSeconds = Long.parseLong(expires);
        } catch (NumberFormatException e) {
            throw AuthException.queryMalformed("X-Amz-Expires should be a number");
        }
        if (expiresSeconds < 0) {
            throw AuthException.queryMalformed("X-Amz-Expires must be non-negative");
        }
        if (expiresSeconds > SigV4Verifier.MAX_PRESIGNED_EXPIRES_SECONDS) {
            throw AuthException.queryMalformed("X-Amz-Expires must be less than a week (in seconds) that is "
                    + SigV4Verifier.MAX_PRESIGNED_EXPIRES_SECONDS);
        }
        if (!isLowerHexSignature(signature)) {
            throw AuthException.queryMalformed("X-Amz-Signature must be 64 lowercase hexadecimal characters");
        }
        return new ClaimedSignature(scope[0], scope[1], scope[2], signedHeaders,
                parseSignedHeaders(signedHeaders, true), signature, amzDate, time, true, expiresSeconds);
    }

    private static boolean isLowerHexSignature(String signature) {
        return SigV4Crypto.isLowerHex(signature, 64);
    }

    /** Access key, date, region of "AK/yyyyMMdd/region/s3/aws4_request". */
    private static String[] parseCredential(String credential, boolean presigned) {
        String[] parts = splitCredential(credential);
        if (parts == null || parts[0].isEmpty() || parts[2].isEmpty()) {
            throw malformed(presigned, "The credential is malformed; expecting "
                    + "\"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
        }
        if (parts[1].length() != 8 || digits(parts[1], 0, 8) < 0) {
            throw malformed(presigned, "The credential is malformed; the date must be YYYYMMDD");
        }
        if (!parts[3].equals(SigV4Verifier.SERVICE)) {
            throw malformed(presigned, "The credential is malformed; incorrect service \"" + parts[3]
                    + "\". This endpoint belongs to \"" + SigV4Verifier.SERVICE + "\".");
        }
        if (!parts[4].equals(SigV4Verifier.TERMINATOR)) {
            throw malformed(presigned, "The credential is malformed; incorrect terminal \"" + parts[4]
                    + "\". This endpoint uses \"" + SigV4Verifier.TERMINATOR + "\".");
        }
        return new String[] {parts[0], parts[1], parts[2]};
    }

    /** The five '/'-separated parts of a credential, or null when there are not five. */
    private static String[] splitCredential(String credential) {
        String[] parts = new String[5];
        int start = 0;
        for (int i = 0; i < 4; i++) {
            int slash = credential.indexOf('/', start);
            if (slash < 0) {
                return null;
            }
            parts[i] = credential.substring(start, slash);
            start = slash + 1;
        }
        if (credential.indexOf('/', start) >= 0) {
            return null;
        }
        parts[4] = credential.substring(start);
        return parts;
    }

    private List<String> parseSignedHeaders(String signedHeaders, boolean presigned) {
        List<String> cached = signedHeaderLists.get(signedHeaders);
        if (cached != null) {
            return cached;
        }
        List<String> parsed = List.copyOf(parseSignedHeaderList(signedHeaders, presigned));
        if (signedHeaderLists.size() >= SIGNED_HEADERS_CACHE_LIMIT) {
            signedHeaderLists.clear();
        }
        signedHeaderLists.put(signedHeaders, parsed);
        return parsed;
    }

    private static List<String> parseSignedHeaderList(String signedHeaders, boolean presigned) {
        String[] names = signedHeaders.split(";", -1);
        List<String> result = new ArrayList<>(names.length);
        for (String name : names) {
            if (name.isEmpty()) {
                throw malformed(presigned, "The signed headers list is malformed: \"" + signedHeaders + "\"");
            }
            result.add(name.toLowerCase(Locale.ROOT));
        }
        if (!result.contains("host")) {
            throw malformed(presigned, "The host header must be signed");
        }
        return result;
    }

    static AuthException malformed(boolean presigned, String message) {
        return presigned ? AuthException.queryMalformed(message) : AuthException.headerMalformed(message);
    }

    /** Parses "yyyyMMdd'T'HHmmss'Z'". */
    static Instant parseAmzDate(String value, boolean presigned) {
        if (value.length() == 16 && value.charAt(8) == 'T' && value.charAt(15) == 'Z') {
            try {
                int year = digits(value, 0, 4);
                int month = digits(value, 4, 6);
                int day = digits(value, 6, 8);
                int hour = digits(value, 9, 11);
                int minute = digits(value, 11, 13);
                int second = digits(value, 13, 15);
                if (year >= 0 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0) {
                    return LocalDateTime.of(year, month, day, hour, minute, second).toInstant(ZoneOffset.UTC);
                }
            } catch (DateTimeException e) {
                // Falls through to the error below.
            }
        }
        if (presigned) {
            throw AuthException.queryMalformed(
                    "X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"");
        }
        throw AuthException.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
    }

    private static int digits(String s, int from, int to) {
        int value = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static Instant parseDateHeader(String value) {
        if (value == null) {
            throw AuthException.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
        }
        try {
            return ZonedDateTime.parse(value.trim(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw AuthException.accessDenied("AWS authentication requires a valid Date or x-amz-date header");
        }
    }

    static String formatAmzDate(Instant time) {
        return DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(time);
    }
}
