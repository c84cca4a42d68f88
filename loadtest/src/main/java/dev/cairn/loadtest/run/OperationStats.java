package dev.cairn.loadtest.run;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The latencies (microseconds) and errors of one operation kind. Threads record; the sampler
 * takes interval histograms and accumulates the whole run's.
 *
 * <p>Thread-safety: {@link #record} and {@link #error} from any thread; the rest from the
 * sampler thread only.
 */
final class OperationStats {

    static final int SIGNIFICANT_DIGITS = 3;

    private final Recorder recorder = new Recorder(SIGNIFICANT_DIGITS);
    private final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final LongAdder intervalErrors = new LongAdder();
    private final Histogram total = new Histogram(SIGNIFICANT_DIGITS);
    private Histogram interval;

    void record(long latencyNanos) {
        recorder.recordValue(Math.max(1, latencyNanos / 1_000));
    }

    void error(String kind) {
        errors.computeIfAbsent(kind, k -> new LongAdder()).increment();
        intervalErrors.increment();
    }

    /** Closes the current interval; the histogram returned is valid until the next call. */
    Histogram nextInterval() {
        interval = recorder.getIntervalHistogram(interval);
        total.add(interval);
        return interval;
    }

    long takeIntervalErrors() {
        return intervalErrors.sumThenReset();
    }

    Histogram total() {
        return total;
    }

    Map<String, Long> errors() {
        Map<String, Long> out = new TreeMap<>();
        errors.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    long errorCount() {
        long n = 0;
        for (LongAdder a : errors.values()) {
            n += a.sum();
        }
        return n;
    }
}
