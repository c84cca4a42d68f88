package dev.cairn.store;

import java.util.Comparator;

/**
 * Orders strings as their UTF-8 bytes sort unsigned (S3's listing order), which is code point
 * order; {@link String#compareTo} differs for characters outside the basic plane. Thread-safe.
 */
public final class Utf8Order {
    public static final Comparator<String> COMPARATOR = Utf8Order::compare;

    private Utf8Order() {
    }

    /**
     * Compares UTF-16 units up to the first that differ: below the surrogates (U+D800) a unit is
     * its code point, so that is the answer; past them, code points decide.
     */
    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int k = 0; k < n; k++) {
            char ca = a.charAt(k);
            char cb = b.charAt(k);
            if (ca != cb) {
                return ca < Character.MIN_SURROGATE && cb < Character.MIN_SURROGATE ? Character.compare(ca, cb)
                        : byCodePoints(a, b);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    static int byCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
