package dev.cairn.store.embedded;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;

/**
 * A token bucket of bytes per second shared by every reading thread; a burst holds at most one
 * second of tokens. Rate 0 is unlimited. Thread-safe.
 */
final class ReadRate {
    private final long bytesPerSecond;
    private double tokens;
    private long lastNanos = System.nanoTime();
    private long charged;

    ReadRate(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("a read rate cannot be negative");
        }
        this.bytesPerSecond = bytesPerSecond;
    }

    boolean unlimited() {
        return bytesPerSecond == 0;
    }

    /** Blocks until {@code bytes} may be read. */
    void acquire(long bytes) throws InterruptedIOException {
        if (bytesPerSecond == 0 || bytes <= 0) {
            return;
        }
        long waitNanos;
        synchronized (this) {
            long now = System.nanoTime();
            tokens = Math.min(bytesPerSecond, tokens + (now - lastNanos) * (bytesPerSecond / 1e9));
            lastNanos = now;
            tokens -= bytes;
            charged += bytes;
            waitNanos = tokens >= 0 ? 0 : (long) (-tokens / bytesPerSecond * 1e9);
        }
        if (waitNanos > 0) {
            try {
                Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while throttled");
            }
        }
    }

    /** The bytes {@link #acquire}d so far; 0 while unlimited, which counts nothing. */
    synchronized long charged() {
        return charged;
    }

    /** {@code in}, reading no faster than this rate. */
    InputStream throttle(InputStream in) {
        if (unlimited()) {
            return in;
        }
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                acquire(1);
                return super.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = super.read(b, off, Math.min(len, 64 * 1024));
                acquire(n);
                return n;
            }
        };
    }
}
