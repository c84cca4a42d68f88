package dev.cairn.service.s3;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** Percent-decoding of paths and queries, and S3's {@code encoding-type=url}. Thread-safe. */
public final class UrlCodec {
    private UrlCodec() {
    }

    /** Decodes %XX escapes as UTF-8; {@code +} becomes a space only when {@code plusIsSpace}. */
    public static String decode(String s, boolean plusIsSpace) throws S3Exception {
        if (s.indexOf('%') < 0 && (!plusIsSpace || s.indexOf('+') < 0)) {
            return s;
        }
        byte[] out = new byte[s.length() * 3];
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                if (i + 2 >= s.length()) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "bad percent-encoding");
                }
                int hi = Character.digit(s.charAt(i + 1), 16);
                int lo = Character.digit(s.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    throw new S3Exception(S3Error.INVALID_ARGUMENT, "bad percent-encoding");
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (c == '+' && plusIsSpace) {
                out[n++] = ' ';
            } else if (c < 0x80) {
                out[n++] = (byte) c;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                if (Character.isHighSurrogate(c) && i + 1 < s.length()) {
                    b = s.substring(i, i + 2).getBytes(StandardCharsets.UTF_8);
                    i++;
                }
                System.arraycopy(b, 0, out, n, b.length);
                n += b.length;
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    /** The query parameters of a raw query string, decoded; a name without value maps to "". */
    public static Map<String, String> parseQuery(String raw) throws S3Exception {
        Map<String, String> params = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return params;
        }
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
            params.putIfAbsent(name, value);
        }
        return params;
    }

    /** S3's url encoding of listed keys: everything but unreserved characters and '/'. */
    public static String encodeKey(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }
}
