package dev.cairn.engine.sstable;

import java.util.Arrays;

/**
 * Short index keys. A separator between two adjacent data blocks only has to sort at or after the
 * last key of the first and before the first key of the second; a short one keeps the in-memory
 * index small. Stateless.
 */
final class Separators {
    private Separators() {
    }

    /**
     * An internal key {@code s} with {@code last <= s < next}, shorter than {@code last} when
     * their filter keys (table id and user key) differ past the table id in a byte that can be
     * incremented without reaching {@code next}'s: then {@code s} is {@code last}'s filter key cut
     * after that byte, the byte incremented, and a trailer of all ones. Otherwise {@code last}.
     *
     * <p>REQUIRES: {@code last < next} by {@link InternalKeys#COMPARATOR}.
     */
    static byte[] between(byte[] last, byte[] next) {
        int lastLength = last.length - InternalKeys.TRAILER_BYTES;
        int nextLength = next.length - InternalKeys.TRAILER_BYTES;
        int diff = Arrays.mismatch(last, 0, lastLength, next, 0, nextLength);
        // Keep the two table id bytes, and give up when one filter key is a prefix of the other.
        if (diff < 2 || diff >= Math.min(lastLength, nextLength)) {
            return last;
        }
        int b = last[diff] & 0xFF;
        if (b + 1 >= (next[diff] & 0xFF)) {
            return last;
        }
        byte[] separator = Arrays.copyOf(last, diff + 1 + InternalKeys.TRAILER_BYTES);
        separator[diff] = (byte) (b + 1);
        Arrays.fill(separator, diff + 1, separator.length, (byte) 0xFF);
        return separator;
    }
}
