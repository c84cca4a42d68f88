package dev.cairn.store.embedded;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A fixed set of locks chosen by hash, so that unrelated keys rarely contend and memory stays
 * constant. Several locks are always taken in stripe order, so two takers never deadlock.
 * Thread-safe.
 */
final class StripedLocks {
    private final ReentrantLock[] locks;

    StripedLocks(int stripes) {
        locks = new ReentrantLock[Integer.highestOneBit(Math.max(1, stripes - 1)) << 1];
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    int stripe(Object key) {
        int h = key.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & (locks.length - 1);
    }

    /** Locks the stripes of every key given (nulls ignored) in stripe order; close to unlock. */
    Held lock(Object... keys) {
        int[] stripes = new int[keys.length];
        int n = 0;
        for (Object k : keys) {
            if (k != null) {
                stripes[n++] = stripe(k);
            }
        }
        int[] sorted = Arrays.stream(stripes, 0, n).sorted().distinct().toArray();
        for (int s : sorted) {
            locks[s].lock();
        }
        return new Held(sorted);
    }

    /** Locks held together; {@link #close()} releases them. */
    final class Held implements AutoCloseable {
        private final int[] stripes;

        private Held(int[] stripes) {
            this.stripes = stripes;
        }

        @Override
        public void close() {
            for (int i = stripes.length - 1; i >= 0; i--) {
                locks[stripes[i]].unlock();
            }
        }
    }
}
