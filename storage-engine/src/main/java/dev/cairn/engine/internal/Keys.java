package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import java.util.Arrays;

/** Comparisons of internal keys by their (table, user key) part alone, and the key filters and caches see. */
final class Keys {
    private Keys() {
    }

    static int userCompare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, 0, a.length - InternalKeys.TRAILER_BYTES,
                b, 0, b.length - InternalKeys.TRAILER_BYTES);
    }

    /** The table id (2 bytes, big-endian) then the user key: what bloom filters, value files and the row cache key on. */
    static byte[] filterKey(int tableId, byte[] userKey) {
        byte[] k = new byte[2 + userKey.length];
        k[0] = (byte) (tableId >>> 8);
        k[1] = (byte) tableId;
        System.arraycopy(userKey, 0, k, 2, userKey.length);
        return k;
    }
}
