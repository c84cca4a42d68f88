package dev.cairn.service.variants;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * imgix's URL signature: {@code s} is the hex MD5 of the secure token, the path as sent and, when
 * other parameters remain, {@code ?} and the query as sent without {@code s}. So the srcset helpers
 * that sign imgix URLs sign Cairn's. Stateless.
 */
final class ImgixSignature {
    private ImgixSignature() {
    }

    /** Whether {@code rawQuery} carries the right {@code s} for {@code rawPath} under {@code token}. */
    static boolean verify(String token, String rawPath, String rawQuery) {
        if (token == null || rawQuery == null) {
            return false;
        }
        String given = null;
        StringBuilder rest = new StringBuilder();
        for (String pair : rawQuery.split("&", -1)) {
            if (pair.startsWith("s=")) {
                if (given != null) {
                    return false;
                }
                given = pair.substring(2);
            } else if (!pair.isEmpty()) {
                rest.append(rest.length() == 0 ? "" : "&").append(pair);
            }
        }
        if (given == null) {
            return false;
        }
        String expected = sign(token, rawPath, rest.toString());
        return MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                given.toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }

    /** The signature of {@code rawPath} and {@code query} (without {@code s}; empty: none). */
    static String sign(String token, String rawPath, String query) {
        String signed = token + rawPath + (query.isEmpty() ? "" : "?" + query);
        try {
            return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("MD5")
                    .digest(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
