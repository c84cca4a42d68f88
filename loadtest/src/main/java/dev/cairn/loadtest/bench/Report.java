package dev.cairn.loadtest.bench;

import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.fs.WriteLifetime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * Renders the engine benchmark's results: a table (Cairn | RocksDB | Cairn ÷ RocksDB) for people
 * and one JSON line for tools. A store that was skipped shows "-" in the table and null in JSON.
 *
 * <p>Thread-safety: immutable.
 */
final class Report {

    /** One figure: its JSON name (RocksDB's is prefixed {@code rocksdb_}), its label, its format. */
    private record Metric(String json, String label, String format, ToDoubleFunction<StoreFigures> value) {
    }

    private static final String LIFETIME_PREFIX = "fs_bytes_written_";
    private static final List<Metric> METRICS = metrics();

    private static List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>(List.of(
            new Metric("put_ops", "load puts/s", "%.0f", StoreFigures::putsPerSecond),
            new Metric("put_p50_ms", "load put p50 ms", "%.2f", StoreFigures::putP50Millis),
            new Metric("put_p99_ms", "load put p99 ms", "%.2f", StoreFigures::putP99Millis),
            new Metric("overwrite_ops", "overwrite puts/s", "%.0f", StoreFigures::overwritesPerSecond),
            new Metric("get_ops", "random gets/s", "%.0f", StoreFigures::getsPerSecond),
            new Metric("get_p50_ms", "get p50 ms", "%.3f", StoreFigures::getP50Millis),
            new Metric("get_p99_ms", "get p99 ms", "%.3f", StoreFigures::getP99Millis),
            new Metric("write_amp", "write amp (FileSystem*)", "%.3f", StoreFigures::writeAmp),
            new Metric("write_amp_proc", "write amp (/proc/self/io)", "%.3f", StoreFigures::writeAmpProc),
            new Metric("space_amp", "space amp after overwrite", "%.3f", StoreFigures::spaceAmp),
            new Metric("space_amp_after_gc", "space amp after compaction+GC", "%.3f", StoreFigures::spaceAmpAfterGc),
            new Metric("reads_per_get", "reads per get (FileSystem*)", "%.3f", StoreFigures::readsPerGet),
            new Metric("reads_per_get_proc", "read syscalls per get", "%.3f", StoreFigures::readCallsPerGet),
            new Metric("device_read_bytes_per_get", "device read bytes per get", "%.0f", StoreFigures::deviceReadBytesPerGet),
            new Metric("index_bytes_per_key", "index+filter bytes per key", "%.2f", StoreFigures::indexBytesPerKey),
            new Metric("user_bytes_written", "user bytes written", "%.0f", f -> f.userBytesWritten()),
            new Metric("device_bytes_written", "device bytes written", "%.0f", StoreFigures::deviceBytesWritten),
            new Metric("disk_bytes", "disk bytes after overwrite", "%.0f", f -> f.diskBytes()),
            new Metric("disk_bytes_after_gc", "disk bytes after compaction+GC", "%.0f", f -> f.diskBytesAfterGc()),
            new Metric("gets", "gets measured", "%.0f", f -> f.gets())));
        for (WriteLifetime lifetime : WriteLifetime.values()) {
            String name = lifetime.name().toLowerCase(Locale.ROOT);
            metrics.add(new Metric(LIFETIME_PREFIX + name, "FileSystem bytes written, " + name, "%.0f",
                    f -> f.fileSystemBytesWritten(lifetime)));
        }
        return List.copyOf(metrics);
    }

    private final BenchConfig config;
    private final ImageSizeDistribution sizes;
    private final StoreFigures cairn;
    private final StoreFigures rocksdb;
    private final String rocksdbVersion;

    Report(BenchConfig config, ImageSizeDistribution sizes, StoreFigures cairn, StoreFigures rocksdb, String rocksdbVersion) {
        this.config = config;
        this.sizes = sizes;
        this.cairn = cairn;
        this.rocksdb = rocksdb;
        this.rocksdbVersion = rocksdbVersion;
    }

    String table() {
        StringBuilder out = new StringBuilder();
        String row = "%-32s %16s %16s %14s%n";
        out.append(String.format(row, "metric", "Cairn", "RocksDB", "Cairn/RocksDB"));
        out.append("-".repeat(81)).append('\n');
        for (Metric m : METRICS) {
            double c = valueOf(m, cairn);
            double r = valueOf(m, rocksdb);
            if (m.json().startsWith(LIFETIME_PREFIX) && !(c > 0)) {
                continue;
            }
            out.append(String.format(row, m.label(), format(m.format(), c), format(m.format(), r), format("%.3f", c / r)));
        }
        out.append(String.format("%n* FileSystem counters for Cairn; RocksDB has none, so its row repeats the kernel's count%n"));
        out.append(String.format("  (write amp from /proc/self/io, reads per get as read system calls).%n"));
        out.append(String.format("objects %d, %d threads, seed %d, value threshold %d B, block cache %d B, sync %s, JDK %s%n",
                config.objects(), config.threads(), config.seed(), config.valueThreshold(), config.blockCacheBytes(),
                syncPolicy(), jdk()));
        if ((cairn != null && !cairn.settled()) || (rocksdb != null && !rocksdb.settled())) {
            out.append("warning: a store's background writes did not go quiet in time; its write amp is a lower bound\n");
        }
        return out.toString();
    }

    String jsonLine() {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Metric m : METRICS) {
            fields.put(m.json(), valueOf(m, cairn));
        }
        for (Metric m : METRICS) {
            fields.put("rocksdb_" + m.json(), valueOf(m, rocksdb));
        }
        for (Metric m : METRICS) {
            fields.put("ratio_" + m.json(), valueOf(m, cairn) / valueOf(m, rocksdb));
        }
        fields.put("settled", cairn == null ? null : cairn.settled());
        fields.put("rocksdb_settled", rocksdb == null ? null : rocksdb.settled());
        fields.put("objects", config.objects());
        fields.put("threads", config.threads());
        fields.put("seed", config.seed());
        fields.put("value_threshold", config.valueThreshold());
        fields.put("block_cache_bytes", config.blockCacheBytes());
        fields.put("sync_policy", syncPolicy());
        fields.put("get_seconds", config.getDuration().toMillis() / 1000.0);
        fields.put("max_gets", config.maxGets());
        fields.put("value_median_bytes", sizes.medianBytes());
        fields.put("value_sigma", sizes.sigma());
        fields.put("value_min_bytes", sizes.minBytes());
        fields.put("value_max_bytes", sizes.maxBytes());
        fields.put("key_bytes", ImageWorkload.KEY_BYTES);
        fields.put("cairn_run", cairn != null);
        fields.put("rocksdb_run", rocksdb != null);
        fields.put("rocksdb_version", rocksdbVersion);
        fields.put("jdk", jdk());
        fields.put("cores", Runtime.getRuntime().availableProcessors());
        return Json.object(fields);
    }

    private static double valueOf(Metric metric, StoreFigures figures) {
        return figures == null ? Double.NaN : metric.value().applyAsDouble(figures);
    }

    private static String format(String format, double value) {
        return Double.isFinite(value) ? String.format(format, value) : "-";
    }

    private static String syncPolicy() {
        return SyncPolicy.EVERY_WRITE.name();
    }

    private static String jdk() {
        return System.getProperty("java.version");
    }
}
