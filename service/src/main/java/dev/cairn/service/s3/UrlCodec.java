package dev.cairn.service.s3;

import dev.cairn.service.auth.UriEncoding;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * S3's use of the service's percent-encoding ({@link UriEncoding}): paths and queries decoded
 * with S3's errors, and {@code encoding-type=url}. Thread-safe.
 */
public final class UrlCodec {
    private UrlCodec() {
    }

    /**
     * Decodes %XX escapes as UTF-8 (bytes that are not UTF-8 become U+FFFD); {@code +} becomes a
     * space only when {@code plusIsSpace}. A malformed escape is InvalidArgument.
     */
    public static String decode(String s, boolean plusIsSpace) throws S3Exception {
        String decoded = UriEncoding.decodeLenient(s, plusIsSpace);
        if (decoded == null) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "bad percent-encoding");
        }
        return decoded;
    }

    /** The query parameters of a raw query string, decoded; a name without value maps to "". */
    public static Map<String, String> parseQuery(String raw) throws S3Exception {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        int start = 0;
        while (start < raw.length()) {
            int amp = raw.indexOf('&', start);
            int end = amp < 0 ? raw.length() : amp;
            if (end > start) {
                int eq = raw.indexOf('=', start);
                if (eq < 0 || eq > end) {
                    params.putIfAbsent(decode(raw.substring(start, end), true), "");
                } else {
                    String name = decode(raw.substring(start, eq), true);
                    params.putIfAbsent(name, decode(raw.substring(eq + 1, end), true));
                }
            }
            start = end + 1;
        }
        return params;
    }

    /** S3's url encoding of listed keys: everything but unreserved characters and '/'. */
    public static String encodeKey(String s) {
        return UriEncoding.encode(s, true);
    }
}
