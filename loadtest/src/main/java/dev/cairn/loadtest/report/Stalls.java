package dev.cairn.loadtest.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The stall detector: the operations each sampling interval of a run completed (a second by
 * default), the median and the slowest interval, and the intervals that completed fewer than a
 * tenth of the median's. When the median interval itself completed fewer than a tenth of the
 * fastest's (the target stalled for more than half the run), every interval under a tenth of the
 * fastest is flagged. A final interval shorter than the sampling interval (the run ended within
 * it) is left out; the others are compared by their rate, operations and errors per second. The
 * bench scripts apply the same rule to warp's runs (service/src/test/bench/stalls.py).
 *
 * @param judged          the intervals judged
 * @param medianPerSecond the median interval's operations per second
 * @param fastestPerSecond the fastest interval's
 * @param slowestPerSecond the slowest interval's
 * @param slowestAt       when the slowest interval began, seconds from the run's start (-1: none judged)
 * @param flaggedAt       when each flagged interval began
 */
public record Stalls(int judged, double medianPerSecond, double fastestPerSecond, double slowestPerSecond,
                     double slowestAt, List<Double> flaggedAt) {

    /** Judges intervals given by their starts and their rates (operations per second). */
    public static Stalls judge(double[] startSeconds, double[] perSecond) {
        if (perSecond.length == 0) {
            return new Stalls(0, 0, 0, 0, -1, List.of());
        }
        double[] sorted = perSecond.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        double fastest = sorted[n - 1];
        double reference = median * 10 >= fastest ? median : fastest;
        int slowest = 0;
        List<Double> flagged = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (perSecond[i] < perSecond[slowest]) {
                slowest = i;
            }
            if (perSecond[i] * 10 < reference) {
                flagged.add(startSeconds[i]);
            }
        }
        return new Stalls(n, median, fastest, perSecond[slowest], startSeconds[slowest], List.copyOf(flagged));
    }

    /** Judges the timeline of a result file ({@code loadtest run}'s JSON). */
    public static Stalls of(JsonNode result) {
        JsonNode timeline = result.path("timeline");
        double interval = result.path("config").path("intervalSeconds").asDouble(1);
        List<double[]> judged = new ArrayList<>();
        for (int i = 0; i < timeline.size(); i++) {
            JsonNode s = timeline.get(i);
            double start = s.path("start").asDouble();
            double length = s.path("end").asDouble() - start;
            boolean partialLast = i == timeline.size() - 1 && length < interval;
            if (length <= 0 || partialLast) {
                continue;
            }
            long done = s.path("errors").asLong();
            for (JsonNode count : s.path("counts")) {
                done += count.asLong();
            }
            judged.add(new double[] {start, done / length});
        }
        double[] starts = new double[judged.size()];
        double[] rates = new double[judged.size()];
        for (int i = 0; i < judged.size(); i++) {
            starts[i] = judged.get(i)[0];
            rates[i] = judged.get(i)[1];
        }
        return judge(starts, rates);
    }

    public boolean stalled() {
        return !flaggedAt.isEmpty();
    }

    /** Whether the intervals were measured against the fastest: the median interval was itself a stall. */
    public boolean againstFastest() {
        return medianPerSecond * 10 < fastestPerSecond;
    }
}
