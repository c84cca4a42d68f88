package dev.cairn.store;

import java.util.HexFormat;

/** Lower-case hex, and the SHA-256 form check. Thread-safe. */
public final class Hex {
    private static final HexFormat HEX = HexFormat.of();

    private Hex() {
    }

    public static String encode(byte[] bytes) {
        return HEX.formatHex(bytes);
    }

    public static byte[] decode(String hex) {
        return HEX.parseHex(hex);
    }

    /** Whether {@code s} is 64 lower-case hex digits. */
    public static boolean isSha256(String s) {
        return s != null && s.length() == 64 && isLowerHex(s);
    }

    /** Whether every character of {@code s} is a lower-case hex digit. */
    public static boolean isLowerHex(CharSequence s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
