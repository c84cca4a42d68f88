package dev.cairn.loadtest.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Result files side by side: one column per file, then the first file's ratio to each other
 * ({@code first ÷ other}: above 1 means more throughput, or more latency, than the other).
 *
 * <p>Thread-safety: stateless.
 */
public final class Comparison {

    private static final String[][] METRICS = {
        {"opsPerSecond", "ops/s"}, {"p50Ms", "p50 ms"}, {"p95Ms", "p95 ms"}, {"p99Ms", "p99 ms"},
        {"p999Ms", "p99.9 ms"}, {"maxMs", "max ms"}, {"errorCount", "errors"},
    };

    private Comparison() {
    }

    public static String format(List<JsonNode> results, List<String> names) {
        Set<String> ops = new LinkedHashSet<>();
        for (JsonNode r : results) {
            r.path("perOperation").fieldNames().forEachRemaining(ops::add);
        }
        List<String> header = new ArrayList<>(List.of("operation", "metric"));
        header.addAll(names);
        for (int i = 1; i < names.size(); i++) {
            header.add(names.get(0) + " / " + names.get(i));
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(header);
        for (String op : ops) {
            for (String[] metric : METRICS) {
                List<String> row = new ArrayList<>(List.of(op, metric[1]));
                for (JsonNode r : results) {
                    JsonNode v = r.path("perOperation").path(op).path(metric[0]);
                    row.add(v.isMissingNode() ? "-" : number(v.asDouble()));
                }
                JsonNode first = results.get(0).path("perOperation").path(op).path(metric[0]);
                for (int i = 1; i < results.size(); i++) {
                    JsonNode other = results.get(i).path("perOperation").path(op).path(metric[0]);
                    row.add(first.isMissingNode() || other.isMissingNode() || other.asDouble() == 0
                            ? "-" : String.format(Locale.ROOT, "%.2f", first.asDouble() / other.asDouble()));
                }
                rows.add(row);
            }
        }
        List<String> trav = new ArrayList<>(List.of("traversal", "MB/s"));
        boolean anyTraversal = false;
        for (JsonNode r : results) {
            JsonNode t = r.path("traversal");
            anyTraversal |= t.isObject();
            trav.add(t.isObject() ? number(t.path("megabytesPerSecond").asDouble()) : "-");
        }
        if (anyTraversal) {
            while (trav.size() < header.size()) {
                trav.add("");
            }
            rows.add(trav);
            for (String phase : List.of("before", "during", "after")) {
                for (String op : ops) {
                    List<String> row = new ArrayList<>(List.of(op, "p99 ms " + phase));
                    boolean any = false;
                    for (JsonNode r : results) {
                        JsonNode p = r.path("phases").path(phase).path(op);
                        boolean has = p.path("count").asLong() > 0;
                        any |= has;
                        row.add(has ? number(p.path("p99Ms").asDouble()) : "-");
                    }
                    while (row.size() < header.size()) {
                        row.add("");
                    }
                    if (any) {
                        rows.add(row);
                    }
                }
            }
        }
        return table(rows);
    }

    private static String number(double v) {
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3f", v);
    }

    private static String table(List<List<String>> rows) {
        int cols = rows.get(0).size();
        int[] width = new int[cols];
        for (List<String> row : rows) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            for (int i = 0; i < cols; i++) {
                String cell = row.get(i);
                out.append(i < 2 ? String.format("%-" + width[i] + "s", cell) : String.format("%" + width[i] + "s", cell));
                out.append(i + 1 < cols ? "  " : "\n");
            }
        }
        return out.toString();
    }
}
