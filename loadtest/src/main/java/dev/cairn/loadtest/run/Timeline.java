package dev.cairn.loadtest.run;

import dev.cairn.loadtest.workload.Operation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The run interval by interval, and the latency of each operation kind in each traversal phase:
 * before the traversal started, during it (any interval it overlaps), after it ended.
 *
 * <p>Thread-safety: used by the run's sampling thread only.
 */
final class Timeline {

    /** Where an interval lies relative to the traversal. */
    enum Phase { BEFORE, DURING, AFTER }

    /** One interval: its end (seconds from start), and per operation count, p50, p99 (ms), errors. */
    record Sample(double startSeconds, double endSeconds, Map<Operation, Long> counts, Map<Operation, Double> p50Ms,
                  Map<Operation, Double> p99Ms, Map<Operation, Double> maxMs, long errors, long traversalObjects,
                  Phase phase) {
    }

    private final List<Sample> samples = new ArrayList<>();
    private final Map<Phase, Map<Operation, Histogram>> phases = new EnumMap<>(Phase.class);
    private double lastRate;
    private long lastEnd;

    Timeline(Collection<Operation> operations) {
        for (Phase p : Phase.values()) {
            Map<Operation, Histogram> m = new EnumMap<>(Operation.class);
            for (Operation op : operations) {
                m.put(op, new Histogram(OperationStats.SIGNIFICANT_DIGITS));
            }
            phases.put(p, m);
        }
    }

    /** Closes the interval {@code [from, to)} (nanoseconds since the run's start). */
    void sample(Map<Operation, OperationStats> stats, long from, long to, TraversalRun traversal, long runStart) {
        Phase phase = phaseOf(from, to, traversal, runStart);
        Map<Operation, Long> counts = new EnumMap<>(Operation.class);
        Map<Operation, Double> p50 = new EnumMap<>(Operation.class);
        Map<Operation, Double> p99 = new EnumMap<>(Operation.class);
        Map<Operation, Double> max = new EnumMap<>(Operation.class);
        long errors = 0;
        long total = 0;
        for (Map.Entry<Operation, OperationStats> e : stats.entrySet()) {
            Histogram h = e.getValue().nextInterval();
            phases.get(phase).get(e.getKey()).add(h);
            counts.put(e.getKey(), h.getTotalCount());
            total += h.getTotalCount();
            if (h.getTotalCount() > 0) {
                p50.put(e.getKey(), h.getValueAtPercentile(50) / 1000.0);
                p99.put(e.getKey(), h.getValueAtPercentile(99) / 1000.0);
                max.put(e.getKey(), h.getMaxValue() / 1000.0);
            }
            errors += e.getValue().takeIntervalErrors();
        }
        long traversed = traversal == null ? 0 : traversal.takeIntervalObjects();
        samples.add(new Sample(from / 1e9, to / 1e9, counts, p50, p99, max, errors, traversed, phase));
        lastRate = to > from ? (total + errors) * 1e9 / (to - from) : 0;
        lastEnd = to;
    }

    private static Phase phaseOf(long from, long to, TraversalRun traversal, long runStart) {
        if (traversal == null || !traversal.started() || traversal.startedNanos() - runStart >= to) {
            return Phase.BEFORE;
        }
        long ended = traversal.endedNanos();
        if (ended != 0 && ended - runStart <= from) {
            return Phase.AFTER;
        }
        return Phase.DURING;
    }

    List<Sample> samples() {
        return samples;
    }

    Map<Phase, Map<Operation, Histogram>> phases() {
        return phases;
    }

    double lastRate() {
        return lastRate;
    }

    long lastEnd() {
        return lastEnd;
    }
}
