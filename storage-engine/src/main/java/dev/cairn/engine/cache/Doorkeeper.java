package dev.cairn.engine.cache;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A small Bloom filter remembering which keys were seen recently (TinyLFU's doorkeeper, Einziger
 * et al. 2017): {@link #seenBefore} answers whether a key was recorded since the last reset and
 * records it. It resets after {@code window} recordings, so it forgets keys that stop coming back.
 * False positives admit a one-off key now and then; there are no false negatives within a window.
 *
 * <p>Thread-safe: lock-free; a reset racing with a recording may lose that recording.
 */
final class Doorkeeper {
    private final AtomicLongArray bits;
    private final int mask;
    private final long window;
    private final LongAdder recorded = new LongAdder();

    /** Sized at 8 bits per key of the window, two probes: about 5% false positives when full. */
    Doorkeeper(long window) {
        long wanted = Math.max(64, Long.highestOneBit(Math.max(1, window) * 8 - 1) << 1);
        int words = (int) Math.min(1 << 26, wanted / 64);
        this.bits = new AtomicLongArray(words);
        this.mask = words * 64 - 1;
        this.window = window;
    }

    /** Records the key; returns whether it had been recorded before within the window. */
    boolean seenBefore(long hash) {
        int a = (int) hash & mask;
        int b = (int) (hash >>> 32) & mask;
        boolean seen = isSet(a) & isSet(b);
        if (!seen) {
            set(a);
            set(b);
            recorded.increment();
            if (recorded.sum() >= window) {
                reset();
            }
        }
        return seen;
    }

    private boolean isSet(int bit) {
        return (bits.get(bit >>> 6) & (1L << bit)) != 0;
    }

    private void set(int bit) {
        bits.getAndAccumulate(bit >>> 6, 1L << bit, (x, y) -> x | y);
    }

    private void reset() {
        recorded.reset();
        for (int i = 0; i < bits.length(); i++) {
            bits.set(i, 0);
        }
    }
}
