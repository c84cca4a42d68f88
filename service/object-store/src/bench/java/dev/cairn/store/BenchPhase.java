package dev.cairn.store;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/** One timed phase of a store benchmark: threads repeat an operation for some seconds, each latency kept. */
public final class BenchPhase {
    private BenchPhase() {
    }

    /** One operation of a phase. */
    public interface Op {
        void run(ThreadLocalRandom random) throws Exception;
    }

    /**
     * Runs {@code op} on {@code threads} threads for {@code seconds}, each thread keeping at most
     * {@code samplesPerThread} latencies (a bound on memory, and on the phase). Returns every
     * latency in nanoseconds, sorted.
     */
    public static long[] run(int threads, int seconds, int samplesPerThread, Op op) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    long[] lat = new long[samplesPerThread];
                    int n = 0;
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (System.nanoTime() < end && n < lat.length) {
                        long start = System.nanoTime();
                        op.run(random);
                        lat[n++] = System.nanoTime() - start;
                    }
                    return Arrays.copyOf(lat, n);
                }));
            }
            List<long[]> all = new ArrayList<>();
            for (Future<long[]> f : futures) {
                all.add(f.get());
            }
            return all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
        } finally {
            pool.shutdown();
        }
    }

    /** The latency at {@code fraction} (0.5 for the median) of sorted nanoseconds, in milliseconds; 0 when none. */
    public static double percentileMillis(long[] sorted, double fraction) {
        if (sorted.length == 0) {
            return 0;
        }
        return sorted[Math.min(sorted.length - 1, (int) (sorted.length * fraction))] / 1e6;
    }
}
