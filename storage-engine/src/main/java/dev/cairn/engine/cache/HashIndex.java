package dev.cairn.engine.cache;

import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * The memory-resident index of the {@link SsdCache}: 64-bit key hash → (virtual offset, entry
 * size), in primitive open-addressing tables (linear probing, backward-shift deletion, no
 * tombstones). A slot costs 20 bytes and tables stay between 40% and 80% full, so an entry costs
 * 25 to 50 bytes. Keys themselves are not held: readers compare the key stored in the entry.
 *
 * <p>Thread-safe: the hash space is split into stripes, each guarded by its own monitor; no
 * operation holds more than one stripe at once, and none does I/O.
 */
final class HashIndex {
    /** Where an entry lives: its virtual offset and its size in bytes on the device. */
    record Location(long virtualOffset, int size) {
    }

    private static final int STRIPE_BITS = 6;
    private static final int INITIAL_CAPACITY = 64;
    private static final double MAX_LOAD = 0.8;

    private final Stripe[] stripes = new Stripe[1 << STRIPE_BITS];

    HashIndex() {
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new Stripe();
        }
    }

    private Stripe stripe(long hash) {
        return stripes[(int) (hash >>> (64 - STRIPE_BITS))];
    }

    Location get(long hash) {
        return stripe(hash).get(hash);
    }

    /**
     * Maps {@code hash} to the location if {@code guard} (evaluated under the stripe's lock)
     * holds. Returns the location replaced, {@link #REJECTED} when the guard refused, or null.
     */
    Location putIf(long hash, long virtualOffset, int size, BooleanSupplier guard) {
        return stripe(hash).putIf(hash, virtualOffset, size, guard);
    }

    static final Location REJECTED = new Location(-1, -1);

    /** Removes the mapping; returns the location removed or null. */
    Location remove(long hash) {
        return stripe(hash).remove(hash, -1);
    }

    /** Removes the mapping only if it still points at {@code virtualOffset}. */
    boolean removeIf(long hash, long virtualOffset) {
        return stripe(hash).remove(hash, virtualOffset) != null;
    }

    /** Moves the mapping from {@code oldOffset} to the new location if it still points there. */
    boolean replaceIf(long hash, long oldOffset, long newOffset, int size) {
        return stripe(hash).replaceIf(hash, oldOffset, newOffset, size);
    }

    /** Removes every mapping into {@code segment}; returns how many were removed. */
    long removeSegment(int segment) {
        long removed = 0;
        for (Stripe s : stripes) {
            removed += s.removeSegment(segment);
        }
        return removed;
    }

    /** Calls {@code action} with every virtual offset; stripes are visited one at a time. */
    void forEachOffset(LongConsumer action) {
        for (Stripe s : stripes) {
            s.forEachOffset(action);
        }
    }

    long size() {
        long n = 0;
        for (Stripe s : stripes) {
            n += s.count();
        }
        return n;
    }

    /** Bytes held by the tables' arrays. */
    long memoryBytes() {
        long n = 0;
        for (Stripe s : stripes) {
            n += s.memoryBytes();
        }
        return n;
    }

    private static final class Stripe {
        private long[] hashes = new long[INITIAL_CAPACITY];
        private long[] offsets = new long[INITIAL_CAPACITY];
        private int[] sizes = new int[INITIAL_CAPACITY];
        private int count;

        private int slot(long hash) {
            return (int) (hash ^ (hash >>> 29)) & (hashes.length - 1);
        }

        private int find(long hash) {
            int mask = hashes.length - 1;
            for (int i = slot(hash); ; i = (i + 1) & mask) {
                long h = hashes[i];
                if (h == hash) {
                    return i;
                }
                if (h == 0) {
                    return -1 - i;
                }
            }
        }

        synchronized Location get(long hash) {
            int i = find(hash);
            return i < 0 ? null : new Location(offsets[i], sizes[i]);
        }

        synchronized Location putIf(long hash, long virtualOffset, int size, BooleanSupplier guard) {
            if (!guard.getAsBoolean()) {
                return REJECTED;
            }
            int i = find(hash);
            if (i >= 0) {
                Location previous = new Location(offsets[i], sizes[i]);
                offsets[i] = virtualOffset;
                sizes[i] = size;
                return previous;
            }
            if (count + 1 > hashes.length * MAX_LOAD) {
                resize(hashes.length * 2);
                i = find(hash);
            }
            int at = -1 - i;
            hashes[at] = hash;
            offsets[at] = virtualOffset;
            sizes[at] = size;
            count++;
            return null;
        }

        synchronized Location remove(long hash, long expectedOffset) {
            int i = find(hash);
            if (i < 0 || (expectedOffset >= 0 && offsets[i] != expectedOffset)) {
                return null;
            }
            Location removed = new Location(offsets[i], sizes[i]);
            deleteAt(i);
            return removed;
        }

        synchronized boolean replaceIf(long hash, long oldOffset, long newOffset, int size) {
            int i = find(hash);
            if (i < 0 || offsets[i] != oldOffset) {
                return false;
            }
            offsets[i] = newOffset;
            sizes[i] = size;
            return true;
        }

        synchronized long removeSegment(int segment) {
            long removed = 0;
            for (int i = 0; i < hashes.length; i++) {
                if (hashes[i] != 0 && VirtualOffset.segment(offsets[i]) == segment) {
                    removed++;
                }
            }
            if (removed > 0) {
                rebuild(hashes.length, segment);
            }
            return removed;
        }

        synchronized void forEachOffset(LongConsumer action) {
            for (int i = 0; i < hashes.length; i++) {
                if (hashes[i] != 0) {
                    action.accept(offsets[i]);
                }
            }
        }

        synchronized int count() {
            return count;
        }

        synchronized long memoryBytes() {
            return (long) hashes.length * (8 + 8 + 4);
        }

        /** Backward-shift deletion: pulls later members of the probe run into the hole. */
        private void deleteAt(int hole) {
            int mask = hashes.length - 1;
            int i = hole;
            for (int j = (i + 1) & mask; hashes[j] != 0; j = (j + 1) & mask) {
                int home = slot(hashes[j]);
                boolean movable = (j > i) ? (home <= i || home > j) : (home <= i && home > j);
                if (movable) {
                    hashes[i] = hashes[j];
                    offsets[i] = offsets[j];
                    sizes[i] = sizes[j];
                    i = j;
                }
            }
            hashes[i] = 0;
            offsets[i] = 0;
            sizes[i] = 0;
            count--;
        }

        private void resize(int capacity) {
            rebuild(capacity, -1);
        }

        private void rebuild(int capacity, int droppedSegment) {
            long[] oldHashes = hashes;
            long[] oldOffsets = offsets;
            int[] oldSizes = sizes;
            hashes = new long[capacity];
            offsets = new long[capacity];
            sizes = new int[capacity];
            count = 0;
            for (int i = 0; i < oldHashes.length; i++) {
                long h = oldHashes[i];
                if (h == 0 || VirtualOffset.segment(oldOffsets[i]) == droppedSegment) {
                    continue;
                }
                int at = -1 - find(h);
                hashes[at] = h;
                offsets[at] = oldOffsets[i];
                sizes[at] = oldSizes[i];
                count++;
            }
        }
    }
}
