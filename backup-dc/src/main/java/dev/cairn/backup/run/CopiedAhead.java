package dev.cairn.backup.run;

/**
 * Blobs copied ahead of their rows ({@link BlobCopier#copyAhead}), by the first 64 bits of their
 * hash, each claimed once: the first row naming one counts it as copied by this run, the others
 * as present. Only counts depend on it (whether a blob is in the archive is asked of the archive
 * itself), so two hashes sharing 64 bits can at worst count one copy wrong. 16 bytes per hash at
 * most. Thread-safe.
 */
final class CopiedAhead {
    private long[] slots = new long[1 << 10];
    private long[] claimed = new long[slots.length / 64];
    private int size;
    private boolean hasZero;
    private boolean zeroClaimed;

    synchronized void add(String sha256) {
        long v = prefix(sha256);
        if (v == 0) {
            hasZero = true;
            return;
        }
        if (size * 2 >= slots.length) {
            grow();
        }
        if (find(slots, v) < 0) {
            insert(slots, v);
            size++;
        }
    }

    /** True the first time a hash added here is claimed; false after, and for hashes never added. */
    synchronized boolean claim(String sha256) {
        long v = prefix(sha256);
        if (v == 0) {
            boolean first = hasZero && !zeroClaimed;
            zeroClaimed |= hasZero;
            return first;
        }
        int i = find(slots, v);
        if (i < 0 || (claimed[i >>> 6] & (1L << i)) != 0) {
            return false;
        }
        claimed[i >>> 6] |= 1L << i;
        return true;
    }

    synchronized int size() {
        return size + (hasZero ? 1 : 0);
    }

    private static long prefix(String sha256) {
        return Long.parseUnsignedLong(sha256, 0, 16, 16);
    }

    private static int find(long[] table, long v) {
        int mask = table.length - 1;
        for (int i = mix(v) & mask; ; i = (i + 1) & mask) {
            if (table[i] == 0) {
                return -1;
            }
            if (table[i] == v) {
                return i;
            }
        }
    }

    private static int insert(long[] table, long v) {
        int mask = table.length - 1;
        int i = mix(v) & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = v;
        return i;
    }

    private void grow() {
        long[] bigger = new long[slots.length * 2];
        long[] biggerClaimed = new long[bigger.length / 64];
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != 0) {
                int j = insert(bigger, slots[i]);
                if ((claimed[i >>> 6] & (1L << i)) != 0) {
                    biggerClaimed[j >>> 6] |= 1L << j;
                }
            }
        }
        slots = bigger;
        claimed = biggerClaimed;
    }

    private static int mix(long v) {
        long h = v * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
