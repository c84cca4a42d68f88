package dev.cairn.engine.sstable;

import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TokenBucketThrottleTest {
    private static final long SECOND = 1_000_000_000L;

    /** Simulated time: sleeping advances the clock. */
    private final AtomicLong now = new AtomicLong(5 * SECOND);
    private final AtomicLong slept = new AtomicLong();
    private final TokenBucketThrottle.Sleeper sleeper = nanos -> {
        slept.addAndGet(nanos);
        now.addAndGet(nanos);
    };

    @TempDir
    Path dir;

    @Test
    void aBurstOfATenthOfASecondThenTheRate() throws IOException {
        TokenBucketThrottle throttle = new TokenBucketThrottle(1000, now::get, sleeper);
        throttle.acquire(100);
        assertEquals(0, slept.get(), "the bucket starts full");
        throttle.acquire(100);
        assertEquals(SECOND / 10, slept.get());
        throttle.acquire(1000);
        assertEquals(SECOND / 10 + SECOND, slept.get(), "a request larger than the bucket waits its full cost");
    }

    @Test
    void idleTimeEarnsNoMoreThanTheBucket() throws IOException {
        TokenBucketThrottle throttle = new TokenBucketThrottle(1000, now::get, sleeper);
        now.addAndGet(60 * SECOND);
        throttle.acquire(1000);
        assertEquals(SECOND * 9 / 10, slept.get());
    }

    @Test
    void theLongRunRateIsExact() throws IOException {
        long seed = 99;
        System.out.println("TokenBucketThrottleTest seed " + seed);
        Random random = new Random(seed);
        long rate = 64L << 20;
        TokenBucketThrottle throttle = new TokenBucketThrottle(rate, now::get, sleeper);
        long start = now.get();
        long bytes = 0;
        for (int i = 0; i < 10_000; i++) {
            int n = random.nextInt(64 << 10);
            throttle.acquire(n);
            bytes += n;
        }
        double seconds = (now.get() - start) / 1e9;
        double expected = (bytes - rate / 10.0) / rate;
        assertEquals(expected, seconds, 1e-6, "elapsed time for " + bytes + " bytes");
    }

    @Test
    void interruptionSurfacesAsInterruptedIOException() {
        TokenBucketThrottle throttle = new TokenBucketThrottle(10, now::get, nanos -> {
            throw new InterruptedException();
        });
        try {
            assertThrows(InterruptedIOException.class, () -> throttle.acquire(100));
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void invalidArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TokenBucketThrottle(0));
        assertThrows(IllegalArgumentException.class, () -> new TokenBucketThrottle(1).acquire(-1));
    }

    @Test
    void aWriterAsksForEveryByteItWrites() throws IOException {
        AtomicLong acquired = new AtomicLong();
        Path path = dir.resolve("t.sst");
        SSTableWriter writer = new SSTableWriter(new LocalFileSystem(), path, WriteLifetime.MEDIUM,
                SSTableOptions.DEFAULTS, acquired::addAndGet);
        for (int i = 0; i < 3000; i++) {
            writer.add(SSTableTestSupport.denseKey(i), SSTableTestSupport.denseValue(i));
        }
        assertEquals(writer.finish().fileSize(), acquired.get());
    }
}
