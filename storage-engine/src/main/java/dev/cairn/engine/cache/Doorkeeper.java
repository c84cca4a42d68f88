package dev.cairn.engine.cache;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Remembers which keys were requested at least twice recently, in two small Bloom filters (after
 * TinyLFU's doorkeeper, Einziger et al. 2017): a key's first request sets its bits in the first
 * filter, a later one in the second. Both reset after {@code window} first requests, so keys that
 * stop coming back are forgotten. A false positive admits a key early now and then; there are no
 * false negatives within a window.
 *
 * <p>Thread-safe: lock-free; a reset racing with a recording may lose that recording.
 */
final class Doorkeeper {
    private final AtomicLongArray once;
    private final AtomicLongArray twice;
    private final int mask;
    private final long window;
    private final LongAdder recorded = new LongAdder();

    /** Sized at 8 bits per key of the window per filter, two probes: about 5% false positives when full. */
    Doorkeeper(long window) {
        long wanted = Math.max(64, Long.highestOneBit(Math.max(1, window) * 8 - 1) << 1);
        int words = (int) Math.min(1 << 26, wanted / 64);
        this.once = new AtomicLongArray(words);
        this.twice = new AtomicLongArray(words);
        this.mask = words * 64 - 1;
        this.window = window;
    }

    /** Records one request for the key. */
    void record(long hash) {
        int a = (int) hash & mask;
        int b = (int) (hash >>> 32) & mask;
        if (isSet(once, a) && isSet(once, b)) {
            set(twice, a);
            set(twice, b);
            return;
        }
        set(once, a);
        set(once, b);
        recorded.increment();
        if (recorded.sum() >= window) {
            reset();
        }
    }

    /** Whether the key was requested at least twice within the window. */
    boolean admits(long hash) {
        return isSet(twice, (int) hash & mask) && isSet(twice, (int) (hash >>> 32) & mask);
    }

    private static boolean isSet(AtomicLongArray bits, int bit) {
        return (bits.get(bit >>> 6) & (1L << bit)) != 0;
    }

    private static void set(AtomicLongArray bits, int bit) {
        if (!isSet(bits, bit)) {
            bits.getAndAccumulate(bit >>> 6, 1L << bit, (x, y) -> x | y);
        }
    }

    private void reset() {
        recorded.reset();
        for (int i = 0; i < once.length(); i++) {
            once.set(i, 0);
            twice.set(i, 0);
        }
    }
}
