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

    public static int compare(String a, String b) {
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
