package dev.cairn.loadtest.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/** The end-of-run text: a row per operation, the traversal and its phases. Thread-safety: stateless. */
public final class SummaryTable {

    private SummaryTable() {
    }

    public static String format(JsonNode r) {
        StringBuilder out = new StringBuilder();
        JsonNode c = r.path("config");
        out.append(String.format(Locale.ROOT, "%s: workload %s (%s), %d threads, %s loop, %s%n",
                r.path("label").asText(), c.path("workload").asText(), c.path("distribution").asText(),
                c.path("threads").asInt(), c.path("loop").asText(), r.path("target").asText()));
        out.append(String.format(Locale.ROOT, "stopped by %s after %.1f s: %,d operations, %,d errors, %,.1f ops/s%s%n",
                r.path("stopReason").asText(), r.path("elapsedSeconds").asDouble(), r.path("operations").asLong(),
                r.path("errors").asLong(), r.path("opsPerSecond").asDouble(),
                r.path("verifiedReads").asBoolean() ? ", every read verified" : ""));
        out.append(String.format(Locale.ROOT, "%-18s %12s %11s %9s %9s %9s %9s %9s  %s%n", "operation", "count",
                "ops/s", "p50 ms", "p95 ms", "p99 ms", "p99.9 ms", "max ms", "errors"));
        for (Iterator<Map.Entry<String, JsonNode>> it = r.path("perOperation").properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode o = e.getValue();
            out.append(String.format(Locale.ROOT, "%-18s %,12d %,11.1f %9.3f %9.3f %9.3f %9.3f %9.3f  %s%n",
                    e.getKey(), o.path("count").asLong(), o.path("opsPerSecond").asDouble(), o.path("p50Ms").asDouble(),
                    o.path("p95Ms").asDouble(), o.path("p99Ms").asDouble(), o.path("p999Ms").asDouble(),
                    o.path("maxMs").asDouble(), errors(o)));
        }
        out.append(stalls(r));
        JsonNode t = r.path("traversal");
        if (t.isObject()) {
            out.append(String.format(Locale.ROOT,
                    "traversal of %s: %s, %,d objects, %,.1f MB in %.1f s (from %.1f s to %.1f s): %,.0f objects/s, %,.1f MB/s%s%n",
                    t.path("source").asText(), t.path("completed").asBoolean() ? "complete" : "NOT complete",
                    t.path("objects").asLong(), t.path("bytes").asLong() / 1e6,
                    t.path("endSeconds").asDouble() - t.path("startSeconds").asDouble(),
                    t.path("startSeconds").asDouble(), t.path("endSeconds").asDouble(),
                    t.path("objectsPerSecond").asDouble(), t.path("megabytesPerSecond").asDouble(),
                    t.path("errors").isEmpty() ? "" : ", errors " + t.path("errors")));
            out.append(String.format(Locale.ROOT, "%-18s %-7s %12s %9s %9s %9s %9s%n", "serving latency", "phase",
                    "count", "p50 ms", "p99 ms", "p99.9 ms", "max ms"));
            for (Iterator<Map.Entry<String, JsonNode>> ph = r.path("phases").properties().iterator(); ph.hasNext(); ) {
                Map.Entry<String, JsonNode> phase = ph.next();
                for (Iterator<Map.Entry<String, JsonNode>> it = phase.getValue().properties().iterator(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    JsonNode o = e.getValue();
                    out.append(String.format(Locale.ROOT, "%-18s %-7s %,12d %9.3f %9.3f %9.3f %9.3f%n", e.getKey(),
                            phase.getKey(), o.path("count").asLong(), o.path("p50Ms").asDouble(),
                            o.path("p99Ms").asDouble(), o.path("p999Ms").asDouble(), o.path("maxMs").asDouble()));
                }
            }
        }
        return out.toString();
    }

    /** The median and the slowest interval next to each other, and the stalled ones (see {@link Stalls}). */
    static String stalls(JsonNode r) {
        Stalls s = Stalls.of(r);
        if (s.judged() == 0) {
            return "";
        }
        String interval = java.math.BigDecimal.valueOf(r.path("config").path("intervalSeconds").asDouble(1))
                .stripTrailingZeros().toPlainString();
        String head = String.format(Locale.ROOT, "intervals of %s s: median %,.1f ops/s, slowest %,.1f ops/s (from %.1f s)",
                interval, s.medianPerSecond(), s.slowestPerSecond(), s.slowestAt());
        if (!s.stalled()) {
            return head + ", none under a tenth of the median" + System.lineSeparator();
        }
        StringBuilder at = new StringBuilder();
        for (double start : s.flaggedAt()) {
            at.append(at.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.1f s", start));
        }
        String against = s.againstFastest()
                ? String.format(Locale.ROOT, "the fastest (%,.1f ops/s; the median is itself under a tenth of it)",
                        s.fastestPerSecond())
                : "the median";
        return String.format(Locale.ROOT, "%s%nSTALL: %d of %d intervals under a tenth of %s (from %s)%n",
                head, s.flaggedAt().size(), s.judged(), against, at);
    }

    private static String errors(JsonNode o) {
        if (o.path("errorCount").asLong() == 0) {
            return "0";
        }
        StringBuilder s = new StringBuilder().append(o.path("errorCount").asLong()).append(" (");
        boolean first = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = o.path("errors").properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            s.append(first ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue().asLong());
            first = false;
        }
        return s.append(')').toString();
    }
}
