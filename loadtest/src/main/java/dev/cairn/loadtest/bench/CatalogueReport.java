package dev.cairn.loadtest.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Renders the catalogue benchmark: a table (catalogued | self-describing | ratio) and one JSON
 * line. {@code size_ratio} is catalogued ÷ self-describing SSTable bytes; {@code throughput_ratio}
 * the lower of the put and get throughput ratios (catalogued ÷ self-describing).
 *
 * <p>Thread-safety: immutable.
 */
final class CatalogueReport {

    private record Figure(String json, String label, String format, ToDoubleFunction<CatalogueBenchmark.Side> value) {
    }

    private static final List<Figure> FIGURES = List.of(
            new Figure("encoded_bytes_per_row", "encoded row bytes (mean)", "%.1f", CatalogueBenchmark.Side::encodedBytesPerRow),
            new Figure("table_bytes", "SSTable bytes after compaction", "%.0f", s -> s.tableBytes()),
            new Figure("table_bytes_per_row", "SSTable bytes per row", "%.1f", CatalogueBenchmark.Side::tableBytesPerRow),
            new Figure("directory_bytes", "all files in the store", "%.0f", s -> s.directoryBytes()),
            new Figure("put_ops", "puts/s", "%.0f", CatalogueBenchmark.Side::putsPerSecond),
            new Figure("get_ops", "gets/s (decoded rows)", "%.0f", CatalogueBenchmark.Side::getsPerSecond),
            new Figure("gets", "gets measured", "%.0f", s -> s.gets()),
            new Figure("schemas", "catalogue schema ids", "%.0f", s -> s.schemas()),
            new Figure("dictionary_values", "catalogue dictionary values", "%.0f", s -> s.dictionaryValues()));

    private final CatalogueBenchConfig config;
    private final CatalogueBenchmark.Side catalogued;
    private final CatalogueBenchmark.Side self;

    CatalogueReport(CatalogueBenchConfig config, CatalogueBenchmark.Side catalogued, CatalogueBenchmark.Side self) {
        this.config = config;
        this.catalogued = catalogued;
        this.self = self;
    }

    private static double value(Figure f, CatalogueBenchmark.Side s) {
        return f.value().applyAsDouble(s);
    }

    double sizeRatio() {
        return (double) catalogued.tableBytes() / self.tableBytes();
    }

    double putRatio() {
        return catalogued.putsPerSecond() / self.putsPerSecond();
    }

    double getRatio() {
        return catalogued.getsPerSecond() / self.getsPerSecond();
    }

    String table() {
        StringBuilder out = new StringBuilder();
        String row = "%-32s %16s %16s %10s%n";
        out.append(String.format(row, "metric", "catalogued", "self-describing", "ratio"));
        out.append("-".repeat(77)).append('\n');
        for (Figure f : FIGURES) {
            double c = value(f, catalogued);
            double s = value(f, self);
            out.append(String.format(row, f.label(), format(f.format(), c), format(f.format(), s),
                    s == 0 ? "" : format("%.3f", c / s)));
        }
        out.append(String.format("%nsize ratio (SSTable bytes, catalogued / self-describing): %.3f (target at most 0.5)%n",
                sizeRatio()));
        out.append(String.format("throughput ratio: puts %.3f, gets %.3f (target: no measurable loss)%n", putRatio(),
                getRatio()));
        out.append(String.format("%d object-metadata rows, %d threads, seed %d, %d s of gets per store, sync %s, JDK %s%n",
                config.objects(), config.threads(), config.seed(), config.getDuration().toSeconds(), "PERIODIC",
                System.getProperty("java.version")));
        return out.toString();
    }

    String jsonLine() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("size_ratio", sizeRatio());
        fields.put("encoded_size_ratio", (double) catalogued.encodedBytes() / self.encodedBytes());
        fields.put("throughput_ratio", Math.min(putRatio(), getRatio()));
        fields.put("put_throughput_ratio", putRatio());
        fields.put("get_throughput_ratio", getRatio());
        for (Figure f : FIGURES) {
            fields.put("catalogued_" + f.json(), value(f, catalogued));
            fields.put("self_describing_" + f.json(), value(f, self));
        }
        fields.put("objects", config.objects());
        fields.put("threads", config.threads());
        fields.put("seed", config.seed());
        fields.put("get_seconds", config.getDuration().toMillis() / 1000.0);
        fields.put("sync_policy", "PERIODIC");
        fields.put("jdk", System.getProperty("java.version"));
        fields.put("cores", Runtime.getRuntime().availableProcessors());
        return Json.object(fields);
    }

    private static String format(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "-";
    }
}
