package dev.cairn.engine;

import java.util.Arrays;

/**
 * A range of keys: {@code start} inclusive, {@code end} exclusive; a null bound is unbounded.
 */
public record KeyRange(byte[] start, byte[] end) {

    public static KeyRange all() {
        return new KeyRange(null, null);
    }

    public static KeyRange from(byte[] start) {
        return new KeyRange(start, null);
    }

    /** Every key that starts with {@code prefix}. */
    public static KeyRange prefix(byte[] prefix) {
        return new KeyRange(prefix, successor(prefix));
    }

    public boolean contains(byte[] key) {
        return (start == null || Arrays.compareUnsigned(key, start) >= 0)
                && (end == null || Arrays.compareUnsigned(key, end) < 0);
    }

    /** The smallest key greater than every key starting with {@code prefix}; null if none. */
    static byte[] successor(byte[] prefix) {
        byte[] next = prefix.clone();
        for (int i = next.length - 1; i >= 0; i--) {
            if (next[i] != (byte) 0xFF) {
                next[i]++;
                return Arrays.copyOf(next, i + 1);
            }
        }
        return null;
    }
}
