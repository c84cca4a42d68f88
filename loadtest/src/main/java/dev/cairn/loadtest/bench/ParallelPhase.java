package dev.cairn.loadtest.bench;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Runs one benchmark phase on a number of threads: each thread repeatedly claims the next
 * operation number and performs it, until the operation count or the deadline is reached or an
 * operation fails. Latencies go into one HdrHistogram per thread, merged at the end.
 *
 * <p>Thread-safety: a phase object is used by one caller; {@link Operation}s run concurrently.
 */
final class ParallelPhase {

    /** One operation; {@code worker} is the thread's number, for per-thread state. */
    @FunctionalInterface
    interface Operation {
        void run(int worker, long number) throws IOException;
    }

    /** What a phase did. Latencies are in nanoseconds. */
    record Result(long operations, long elapsedNanos, Histogram latencies) {
        double operationsPerSecond() {
            return elapsedNanos == 0 ? 0 : operations * 1e9 / elapsedNanos;
        }

        double percentileMillis(double percentile) {
            return latencies.getTotalCount() == 0 ? Double.NaN : latencies.getValueAtPercentile(percentile) / 1e6;
        }
    }

    /** A limit that never ends a phase before its operation count does. */
    static final Duration NO_LIMIT = Duration.ofDays(365);

    private static final long HIGHEST_TRACKABLE_NANOS = 600_000_000_000L;

    private ParallelPhase() {
    }

    /**
     * Runs operations numbered {@code 0 .. count - 1} on {@code threads} threads, or fewer if
     * {@code limit} passes first: no operation starts after it.
     */
    static Result run(String name, int threads, long count, Duration limit, Operation operation) throws IOException {
        AtomicLong next = new AtomicLong();
        AtomicLong done = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Histogram> histograms = new ArrayList<>();
        List<Thread> workers = new ArrayList<>();
        long start = System.nanoTime();
        long deadlineNanos = start + Math.min(limit.toNanos(), Long.MAX_VALUE / 2);
        for (int w = 0; w < threads; w++) {
            int worker = w;
            Histogram histogram = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
            histograms.add(histogram);
            Thread thread = new Thread(() -> {
                while (failure.get() == null) {
                    long number = next.getAndIncrement();
                    if (number >= count) {
                        return;
                    }
                    long begin = System.nanoTime();
                    if (begin - deadlineNanos >= 0) {
                        return;
                    }
                    try {
                        operation.run(worker, number);
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                        return;
                    }
                    histogram.recordValue(Math.min(HIGHEST_TRACKABLE_NANOS, System.nanoTime() - begin));
                    done.incrementAndGet();
                }
            }, name + "-" + w);
            workers.add(thread);
            thread.start();
        }
        for (Thread thread : workers) {
            joinUninterruptibly(thread);
        }
        long elapsed = System.nanoTime() - start;
        Throwable t = failure.get();
        if (t instanceof IOException e) {
            throw new IOException(name + " failed: " + e.getMessage(), e);
        } else if (t instanceof RuntimeException e) {
            throw e;
        } else if (t instanceof Error e) {
            throw e;
        }
        Histogram merged = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
        histograms.forEach(merged::add);
        return new Result(done.get(), elapsed, merged);
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
