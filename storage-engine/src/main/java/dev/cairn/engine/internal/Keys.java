package dev.cairn.engine.internal;

import java.util.Arrays;

/** Comparisons of internal keys by their (table, user key) part alone. */
final class Keys {
    private Keys() {
    }

    static int userCompare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, 0, a.length - InternalKeys.TRAILER_BYTES,
                b, 0, b.length - InternalKeys.TRAILER_BYTES);
    }
}
