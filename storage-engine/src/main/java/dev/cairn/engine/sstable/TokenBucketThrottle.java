package dev.cairn.engine.sstable;

import java.io.InterruptedIOException;
import java.util.function.LongSupplier;

/**
 * A token bucket filled at {@code bytesPerSecond} that holds at most a tenth of a second's worth,
 * so that an idle period does not turn into a long burst. A caller takes its bytes at once, even
 * into debt, and then sleeps until the bucket has earned them back; so any request size is
 * granted and the long-run rate stays exact, also with many threads. Thread-safe; the sleep
 * happens outside the lock.
 */
public final class TokenBucketThrottle implements WriteThrottle {

    /** Sleeps for a number of nanoseconds; injected so that tests control time. */
    @FunctionalInterface
    interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    private static final double NANOS_PER_SECOND = 1e9;

    private final long bytesPerSecond;
    private final double capacity;
    private final LongSupplier nanoClock;
    private final Sleeper sleeper;
    private double tokens;
    private long lastRefillNanos;

    public TokenBucketThrottle(long bytesPerSecond) {
        this(bytesPerSecond, System::nanoTime,
                nanos -> Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000)));
    }

    TokenBucketThrottle(long bytesPerSecond, LongSupplier nanoClock, Sleeper sleeper) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("bytesPerSecond must be positive, got " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        this.capacity = bytesPerSecond / 10.0;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
        this.tokens = capacity;
        this.lastRefillNanos = nanoClock.getAsLong();
    }

    public long bytesPerSecond() {
        return bytesPerSecond;
    }

    @Override
    public void acquire(int bytes) throws InterruptedIOException {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes must not be negative, got " + bytes);
        }
        long waitNanos;
        synchronized (this) {
            long now = nanoClock.getAsLong();
            long elapsed = now - lastRefillNanos;
            if (elapsed > 0) {
                tokens = Math.min(capacity, tokens + elapsed * (bytesPerSecond / NANOS_PER_SECOND));
                lastRefillNanos = now;
            }
            tokens -= bytes;
            waitNanos = tokens < 0 ? (long) Math.ceil(-tokens * NANOS_PER_SECOND / bytesPerSecond) : 0;
        }
        if (waitNanos > 0) {
            try {
                sleeper.sleepNanos(waitNanos);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                InterruptedIOException ex = new InterruptedIOException("interrupted while throttling a write");
                ex.initCause(e);
                throw ex;
            }
        }
    }
}
