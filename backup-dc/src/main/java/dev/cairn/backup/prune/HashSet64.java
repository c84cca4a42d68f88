package dev.cairn.backup.prune;

/**
 * A set of blob hashes by their first 64 bits, in an open-addressed long array: 16 bytes per
 * hash at most, so the live set of an archive of millions of blobs fits in memory. Two hashes
 * sharing 64 bits look the same; for prune that can only keep an unreferenced blob, never
 * delete a referenced one.
 */
final class HashSet64 {
    private long[] slots = new long[1 << 16];
    private boolean hasZero;
    private int size;

    void add(String sha256) {
        long v = Long.parseUnsignedLong(sha256.substring(0, 16), 16);
        if (v == 0) {
            hasZero = true;
            return;
        }
        if (size * 2 >= slots.length) {
            grow();
        }
        if (insert(slots, v)) {
            size++;
        }
    }

    boolean contains(String sha256) {
        long v = Long.parseUnsignedLong(sha256.substring(0, 16), 16);
        if (v == 0) {
            return hasZero;
        }
        int mask = slots.length - 1;
        for (int i = mix(v) & mask; ; i = (i + 1) & mask) {
            if (slots[i] == 0) {
                return false;
            }
            if (slots[i] == v) {
                return true;
            }
        }
    }

    int size() {
        return size + (hasZero ? 1 : 0);
    }

    private static boolean insert(long[] table, long v) {
        int mask = table.length - 1;
        for (int i = mix(v) & mask; ; i = (i + 1) & mask) {
            if (table[i] == 0) {
                table[i] = v;
                return true;
            }
            if (table[i] == v) {
                return false;
            }
        }
    }

    private void grow() {
        long[] bigger = new long[slots.length * 2];
        for (long v : slots) {
            if (v != 0) {
                insert(bigger, v);
            }
        }
        slots = bigger;
    }

    private static int mix(long v) {
        return (int) (v ^ (v >>> 29) ^ (v >>> 43));
    }
}
