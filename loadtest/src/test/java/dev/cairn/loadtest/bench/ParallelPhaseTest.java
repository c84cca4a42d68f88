package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ParallelPhaseTest {

    @Test
    void runsEveryOperationExactlyOnce() throws IOException {
        int count = 10_000;
        AtomicIntegerArray seen = new AtomicIntegerArray(count);
        ParallelPhase.Result result = ParallelPhase.run("test", 8, count, ParallelPhase.NO_LIMIT,
                (worker, n) -> seen.incrementAndGet((int) n));
        assertEquals(count, result.operations());
        assertEquals(count, result.latencies().getTotalCount());
        for (int i = 0; i < count; i++) {
            assertEquals(1, seen.get(i), "operation " + i);
        }
    }

    @Test
    void aZeroLimitRunsNothing() throws IOException {
        AtomicLong runs = new AtomicLong();
        ParallelPhase.Result result = ParallelPhase.run("test", 4, 1_000_000, Duration.ZERO,
                (worker, n) -> runs.incrementAndGet());
        assertEquals(0, result.operations());
        assertEquals(0, runs.get());
        assertTrue(Double.isNaN(result.percentileMillis(99)));
    }

    @Test
    void theFirstFailureStopsThePhaseAndIsRethrown() {
        AtomicLong runs = new AtomicLong();
        IOException e = assertThrows(IOException.class, () -> ParallelPhase.run("test", 4, 1_000_000,
                ParallelPhase.NO_LIMIT, (worker, n) -> {
                    runs.incrementAndGet();
                    if (n == 100) {
                        throw new IOException("disk on fire");
                    }
                }));
        assertTrue(e.getMessage().contains("disk on fire"), e.getMessage());
        assertTrue(runs.get() < 1_000_000, "stopped early: " + runs.get());
    }

    @Test
    void workersAreNumberedWithinTheThreadCount() throws IOException {
        AtomicIntegerArray perWorker = new AtomicIntegerArray(3);
        ParallelPhase.run("test", 3, 3000, ParallelPhase.NO_LIMIT,
                (worker, n) -> perWorker.incrementAndGet(worker));
        assertEquals(3000, perWorker.get(0) + perWorker.get(1) + perWorker.get(2));
    }
}
