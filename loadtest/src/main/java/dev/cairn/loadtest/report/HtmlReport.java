package dev.cairn.loadtest.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.loadtest.run.RunResult;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A self-contained HTML page for one or more result files: the summary table, throughput and
 * latency over time with the traversal window shaded, and the latency distribution (latency by
 * percentile, the percentile axis logarithmic in 1 / (1 - p) so the tail is visible). Inline
 * SVG only: no script, no external resource.
 *
 * <p>Thread-safety: stateless.
 */
public final class HtmlReport {

    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"};

    private HtmlReport() {
    }

    public static String render(List<JsonNode> results, List<String> names) {
        StringBuilder html = new StringBuilder();
        html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Cairn load test: ")
                .append(SvgChart.escape(String.join(", ", names))).append("</title>\n<style>body{font-family:sans-serif;"
                        + "margin:24px;max-width:960px}pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px}"
                        + "h2{margin-top:32px}</style></head><body>\n");
        html.append("<h1>Cairn load test</h1>\n");
        if (results.size() > 1) {
            html.append("<h2>Comparison</h2>\n<pre>").append(SvgChart.escape(Comparison.format(results, names))).append("</pre>\n");
        }
        for (int i = 0; i < results.size(); i++) {
            JsonNode r = results.get(i);
            html.append("<h2>").append(SvgChart.escape(names.get(i))).append("</h2>\n");
            html.append("<pre>").append(SvgChart.escape(SummaryTable.format(r))).append("</pre>\n");
            html.append(throughput(r)).append(latency(r)).append(cdf(r));
            html.append("<details><summary>configuration</summary><pre>")
                    .append(SvgChart.escape(r.path("config").toPrettyString())).append("\n")
                    .append(SvgChart.escape(r.path("dataset").toPrettyString())).append("</pre></details>\n");
        }
        return html.append("</body></html>\n").toString();
    }

    private static List<String> operations(JsonNode r) {
        List<String> ops = new ArrayList<>();
        r.path("perOperation").fieldNames().forEachRemaining(ops::add);
        return ops;
    }

    private static String throughput(JsonNode r) {
        SvgChart chart = new SvgChart("Throughput", "seconds", "operations / s");
        window(chart, r);
        int colour = 0;
        JsonNode timeline = r.path("timeline");
        for (String op : operations(r)) {
            double[] xs = new double[timeline.size()];
            double[] ys = new double[timeline.size()];
            for (int i = 0; i < timeline.size(); i++) {
                JsonNode s = timeline.get(i);
                double span = s.path("end").asDouble() - s.path("start").asDouble();
                xs[i] = s.path("end").asDouble();
                ys[i] = span > 0 ? s.path("counts").path(op).asLong() / span : 0;
            }
            chart.add(new SvgChart.Series(op, xs, ys, COLOURS[colour++ % COLOURS.length], false));
        }
        if (r.path("traversal").isObject()) {
            double[] xs = new double[timeline.size()];
            double[] ys = new double[timeline.size()];
            for (int i = 0; i < timeline.size(); i++) {
                JsonNode s = timeline.get(i);
                double span = s.path("end").asDouble() - s.path("start").asDouble();
                xs[i] = s.path("end").asDouble();
                ys[i] = span > 0 ? s.path("traversalObjects").asLong() / span : 0;
            }
            chart.add(new SvgChart.Series("traversal objects", xs, ys, "#7f7f7f", true));
        }
        return chart.render();
    }

    private static String latency(JsonNode r) {
        SvgChart chart = new SvgChart("Latency per interval (p50 dashed, p99 solid)", "seconds", "milliseconds").logY();
        window(chart, r);
        int colour = 0;
        JsonNode timeline = r.path("timeline");
        for (String op : operations(r)) {
            String c = COLOURS[colour++ % COLOURS.length];
            for (String p : List.of("p99Ms", "p50Ms")) {
                List<double[]> points = new ArrayList<>();
                for (JsonNode s : timeline) {
                    JsonNode v = s.path(p).path(op);
                    if (!v.isMissingNode()) {
                        points.add(new double[] {s.path("end").asDouble(), v.asDouble()});
                    }
                }
                double[] xs = points.stream().mapToDouble(a -> a[0]).toArray();
                double[] ys = points.stream().mapToDouble(a -> a[1]).toArray();
                chart.add(new SvgChart.Series(op + " " + p.substring(0, 3), xs, ys, c, p.equals("p50Ms")));
            }
        }
        return chart.render();
    }

    private static String cdf(JsonNode r) {
        List<SvgChart.Tick> ticks = new ArrayList<>();
        String[] labels = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};
        for (int i = 0; i < labels.length; i++) {
            ticks.add(new SvgChart.Tick(i, labels[i]));
        }
        SvgChart chart = new SvgChart("Latency by percentile (whole run)", "percentile", "milliseconds").logX(ticks).logY();
        int colour = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = r.path("perOperation").properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String c = COLOURS[colour++ % COLOURS.length];
            String encoded = e.getValue().path("histogram").asText("");
            if (encoded.isEmpty()) {
                continue;
            }
            Histogram h = RunResult.decode(encoded);
            if (h.getTotalCount() == 0) {
                continue;
            }
            List<double[]> points = new ArrayList<>();
            double maxPercentile = 100 - 100.0 / Math.max(10, h.getTotalCount());
            for (double nines = 0; nines <= 5.0001; nines += 0.05) {
                double percentile = 100 - 100 * Math.pow(10, -nines);
                if (percentile > maxPercentile && nines > 0) {
                    break;
                }
                points.add(new double[] {Math.pow(10, nines), h.getValueAtPercentile(percentile) / 1000.0});
            }
            points.add(new double[] {Math.pow(10, Math.min(5, Math.log10(100 / (100 - maxPercentile)))),
                h.getMaxValue() / 1000.0});
            chart.add(new SvgChart.Series(e.getKey(), points.stream().mapToDouble(a -> a[0]).toArray(),
                    points.stream().mapToDouble(a -> a[1]).toArray(), c, false));
        }
        return chart.render();
    }

    private static void window(SvgChart chart, JsonNode r) {
        JsonNode t = r.path("traversal");
        if (t.isObject() && t.path("started").asBoolean()) {
            chart.window(t.path("startSeconds").asDouble(), t.path("endSeconds").asDouble());
        }
    }
}
