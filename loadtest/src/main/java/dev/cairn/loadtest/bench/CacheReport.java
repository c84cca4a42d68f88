package dev.cairn.loadtest.bench;

import dev.cairn.engine.fs.DeviceProfile;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Renders the row cache benchmark: a table with one line per mix and configuration, then one
 * JSON line. The headline figures ({@code memory_only_ops}, {@code tiered_ops}, {@code gain},
 * hit ratios) are those of the first mix (95% reads by default); every mix's figures follow
 * under the prefix {@code r<percent>_}.
 *
 * <p>Thread-safety: immutable.
 */
final class CacheReport {

    private record Figure(String json, ToDoubleFunction<CacheMixFigures> value) {
    }

    private static final List<Figure> FIGURES = List.of(
            new Figure("ops", CacheMixFigures::opsPerSecond),
            new Figure("reads_per_s", CacheMixFigures::readsPerSecond),
            new Figure("read_p50_ms", CacheMixFigures::readP50Millis),
            new Figure("read_p99_ms", CacheMixFigures::readP99Millis),
            new Figure("read_mean_ms", CacheMixFigures::readMeanMillis),
            new Figure("memory_hit_ratio", CacheMixFigures::memoryHitRatio),
            new Figure("ssd_hit_ratio", CacheMixFigures::ssdHitRatio),
            new Figure("hit_ratio", CacheMixFigures::hitRatio),
            new Figure("disk_reads_per_read", CacheMixFigures::deviceReadsPerRead),
            new Figure("reads", f -> f.reads()),
            new Figure("updates", f -> f.updates()),
            new Figure("memory_entries", f -> f.memoryEntries()),
            new Figure("ssd_entries", f -> f.ssdEntries()));

    private final CacheBenchConfig config;
    private final LatestDistribution latest;
    private final List<CacheMixFigures> memoryOnly;
    private final List<CacheMixFigures> tiered;

    CacheReport(CacheBenchConfig config, LatestDistribution latest, List<CacheMixFigures> memoryOnly,
            List<CacheMixFigures> tiered) {
        this.config = config;
        this.latest = latest;
        this.memoryOnly = memoryOnly;
        this.tiered = tiered;
    }

    /** Rows the memory cache held in the first mix; the hot set is taken as twice that. */
    private long hotSetRows() {
        return 2 * memoryOnly.get(0).memoryEntries();
    }

    String table() {
        StringBuilder out = new StringBuilder();
        String row = "%-10s %-13s %9s %9s %9s %9s %9s %8s %8s %8s %10s%n";
        out.append(String.format(row, "mix", "row cache", "ops/s", "reads/s", "p50 ms", "p99 ms", "mean ms",
                "mem hit", "SSD hit", "all hit", "disk/read"));
        out.append("-".repeat(113)).append('\n');
        for (int m = 0; m < memoryOnly.size(); m++) {
            for (CacheMixFigures f : List.of(memoryOnly.get(m), tiered.get(m))) {
                out.append(String.format(row, percent(f.readShare()) + " reads", f == memoryOnly.get(m) ? "memory only"
                        : "memory + SSD", format("%.0f", f.opsPerSecond()), format("%.0f", f.readsPerSecond()),
                        format("%.2f", f.readP50Millis()), format("%.1f", f.readP99Millis()),
                        format("%.2f", f.readMeanMillis()), format("%.3f", f.memoryHitRatio()),
                        format("%.3f", f.ssdHitRatio()), format("%.3f", f.hitRatio()),
                        format("%.3f", f.deviceReadsPerRead())));
            }
            out.append(String.format("%-10s %-13s %9s%n", "", "gain", format("%.2fx", gain(m))));
        }
        CacheMixFigures first = memoryOnly.get(0);
        CacheMixFigures firstTiered = tiered.get(0);
        out.append(String.format("%ngain at %s reads: %.2fx (target at least 2x; the hybrid SSD/HDD store paper measured 1.85x)%n",
                percent(first.readShare()), gain(0)));
        out.append(String.format("memory cache %d B (%d rows), SSD cache %d B (%d rows); hot set = 2 x memory rows = %d rows,"
                        + " %.1f%% of the records, receiving %.1f%% of requests%n",
                config.memoryCacheBytes(), first.memoryEntries(), config.ssdCacheBytes(), firstTiered.ssdEntries(),
                hotSetRows(), 100.0 * hotSetRows() / config.objects(), 100 * latest.shareOfTop(hotSetRows())));
        out.append(String.format("%d records of %d x %d B, %d update rounds of %d, %d to %d warm-up reads, %d s per mix,"
                        + " %d threads, seed %d, block cache %d B, disk %s, JDK %s%n",
                config.objects(), YcsbRows.COLUMNS, YcsbRows.COLUMN_BYTES, config.rounds(), config.updatesPerRound(),
                config.warmupReads(), config.maxWarmupReads(), config.measureDuration().toSeconds(), config.threads(), config.seed(),
                config.blockCacheBytes(), DeviceProfile.HDD_7200.name(), System.getProperty("java.version")));
        return out.toString();
    }

    String jsonLine() {
        Map<String, Object> fields = new LinkedHashMap<>();
        CacheMixFigures first = memoryOnly.get(0);
        CacheMixFigures firstTiered = tiered.get(0);
        fields.put("memory_only_ops", first.opsPerSecond());
        fields.put("tiered_ops", firstTiered.opsPerSecond());
        fields.put("gain", gain(0));
        fields.put("read_share", first.readShare());
        for (CacheBenchmark.Setup setup : CacheBenchmark.Setup.values()) {
            CacheMixFigures f = setup == CacheBenchmark.Setup.MEMORY_ONLY ? first : firstTiered;
            for (Figure figure : FIGURES) {
                fields.put(setup.json + "_" + figure.json(), figure.value().applyAsDouble(f));
            }
        }
        for (int m = 0; m < memoryOnly.size(); m++) {
            String prefix = "r" + percent(memoryOnly.get(m).readShare()).replace("%", "") + "_";
            fields.put(prefix + "gain", gain(m));
            for (CacheBenchmark.Setup setup : CacheBenchmark.Setup.values()) {
                CacheMixFigures f = setup == CacheBenchmark.Setup.MEMORY_ONLY ? memoryOnly.get(m) : tiered.get(m);
                for (Figure figure : FIGURES) {
                    fields.put(prefix + setup.json + "_" + figure.json(), figure.value().applyAsDouble(f));
                }
            }
        }
        fields.put("hot_set_rows", hotSetRows());
        fields.put("hot_set_request_share", latest.shareOfTop(hotSetRows()));
        fields.put("objects", config.objects());
        fields.put("threads", config.threads());
        fields.put("seed", config.seed());
        fields.put("rounds", config.rounds());
        fields.put("updates_per_round", config.updatesPerRound());
        fields.put("warmup_reads", config.warmupReads());
        fields.put("max_warmup_reads", config.maxWarmupReads());
        fields.put("seconds_per_mix", config.measureDuration().toMillis() / 1000.0);
        fields.put("memory_cache_bytes", config.memoryCacheBytes());
        fields.put("ssd_cache_bytes", config.ssdCacheBytes());
        fields.put("block_cache_bytes", config.blockCacheBytes());
        fields.put("zipfian_constant", LatestDistribution.YCSB_ZIPFIAN_CONSTANT);
        fields.put("disk", DeviceProfile.HDD_7200.name());
        fields.put("disk_access_ms", DeviceProfile.HDD_7200.accessNanos() / 1e6);
        fields.put("jdk", System.getProperty("java.version"));
        fields.put("cores", Runtime.getRuntime().availableProcessors());
        return Json.object(fields);
    }

    private double gain(int mix) {
        return tiered.get(mix).opsPerSecond() / memoryOnly.get(mix).opsPerSecond();
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    private static String format(String format, double value) {
        return Double.isFinite(value) ? String.format(Locale.ROOT, format, value) : "-";
    }
}
