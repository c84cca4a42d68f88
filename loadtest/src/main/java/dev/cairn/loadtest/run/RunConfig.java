package dev.cairn.loadtest.run;

import dev.cairn.loadtest.workload.Workload;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One run's settings. A run stops at {@code maxOps} operations or after {@code duration},
 * whichever comes first, after an unrecorded warm-up of {@code warmup}; with {@code targetRate > 0} it is an open loop (operations are due at
 * fixed times, and latency counts from when an operation was due), else a closed loop.
 *
 * <p>Thread-safety: immutable.
 */
public record RunConfig(Workload workload, int threads, double targetRate, long maxOps, Duration duration,
                        long seed, Duration interval, double hotSet, double hotOperations, boolean verifyReads,
                        boolean traversal, Duration traversalDelay, int traversalThreads, String label,
                        Duration warmup) {

    public RunConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        if (!(targetRate >= 0) || Double.isInfinite(targetRate)) {
            throw new IllegalArgumentException("target rate must be 0 (closed loop) or a positive rate, got " + targetRate);
        }
        if (maxOps < 1) {
            throw new IllegalArgumentException("the operation count bound must be at least 1, got " + maxOps);
        }
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("the time bound must be positive, got " + duration);
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("the warm-up must be 0 or positive, got " + warmup);
        }
        if (interval.toMillis() < 10) {
            throw new IllegalArgumentException("the sampling interval must be at least 10 ms, got " + interval);
        }
        if (traversal && (traversalThreads < 1 || traversalDelay.isNegative())) {
            throw new IllegalArgumentException("a traversal needs at least one thread and a delay >= 0");
        }
    }

    public boolean openLoop() {
        return targetRate > 0;
    }

    /** The settings as they go into the result file. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("label", label);
        m.put("workload", workload.name());
        Map<String, Object> mix = new LinkedHashMap<>();
        workload.proportions().forEach((op, p) -> mix.put(op.label(), p));
        m.put("proportions", mix);
        m.put("distribution", workload.distribution().label());
        m.put("maxScanLength", workload.maxScanLength());
        m.put("hotSet", hotSet);
        m.put("hotOperations", hotOperations);
        m.put("threads", threads);
        m.put("loop", openLoop() ? "open" : "closed");
        m.put("targetRate", targetRate);
        m.put("maxOps", maxOps);
        m.put("durationSeconds", duration.toMillis() / 1000.0);
        m.put("warmupSeconds", warmup.toMillis() / 1000.0);
        m.put("seed", seed);
        m.put("intervalSeconds", interval.toMillis() / 1000.0);
        m.put("verifyReads", verifyReads);
        m.put("traversal", traversal);
        m.put("traversalDelaySeconds", traversalDelay.toMillis() / 1000.0);
        m.put("traversalThreads", traversalThreads);
        return m;
    }
}
