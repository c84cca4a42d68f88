package dev.cairn.loadtest.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The scale benchmark's output: a table per aspect with one row per object count, each rate also
 * as a ratio to the smallest count's (flat is 1.00), and one JSON line with every figure.
 *
 * <p>Thread-safety: immutable.
 */
final class ScaleReport {

    private final ScaleConfig config;
    private final List<ScaleFigures> sizes;

    ScaleReport(ScaleConfig config, List<ScaleFigures> sizes) {
        this.config = config;
        this.sizes = List.copyOf(sizes);
    }

    String table() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Scale: %d threads, seed %d, object sizes lognormal (median 20 KiB,"
                + " p90 50 KiB, 1 KiB..1 MiB), every write durable, no row cache; page cache %s.%n",
                config.threads(), config.seed(),
                config.dropCaches() ? "dropped (sync; echo 3 > /proc/sys/vm/drop_caches) before each open and GET phase"
                        : "NOT dropped"));
        out.append(String.format(Locale.ROOT, "%n%-10s %8s %6s %10s %8s %7s %7s %7s %16s %9s %9s %8s %9s %9s%n",
                "objects", "data GB", "/RAM", "load obj/s", "MB/s", "p50 ms", "p99 ms", "× first", "write amp",
                "idx+filt", "LSM B/obj", "close ms", "open ms", "open ms"));
        out.append(String.format(Locale.ROOT, "%-10s %8s %6s %10s %8s %7s %7s %7s %16s %9s %9s %8s %9s %9s%n",
                "", "", "", "", "", "", "", "", "(fs/kern/disk)", "B/obj", "", "", "(clean)", "(kill -9)"));
        ScaleFigures first = sizes.isEmpty() ? null : sizes.get(0);
        for (ScaleFigures s : sizes) {
            out.append(String.format(Locale.ROOT,
                    "%-10d %8.1f %6.2f %10.0f %8.1f %7.2f %7.2f %7.2f %16s %9.2f %9.1f %8.0f %9.0f %9.0f%n",
                    s.objects(), s.diskBytes() / 1e9, s.dataToMemory(), s.loadObjectsPerSecond(),
                    s.loadMegabytesPerSecond(), s.loadP50Millis(), s.loadP99Millis(),
                    s.loadObjectsPerSecond() / first.loadObjectsPerSecond(),
                    String.format(Locale.ROOT, "%.2f", s.writeAmp()) + "/" + format(s.writeAmpKernelCount())
                            + "/" + format(s.writeAmpDisk()),
                    s.indexAndFilterBytesPerObject(), s.lsmBytesPerObject(), s.closeMillis(),
                    s.openAfterCloseMillis(), s.openAfterKillMillis()));
        }
        out.append(String.format(Locale.ROOT, "%n%-10s %-13s %8s %7s %7s %7s %7s %8s %8s %8s %9s %9s %6s%n",
                "objects", "GETs", "GET/s", "MB/s", "p50 ms", "p99 ms", "× first", "reads", "blocks", "device",
                "bytes", "value B", "cache"));
        out.append(String.format(Locale.ROOT, "%-10s %-13s %8s %7s %7s %7s %7s %8s %8s %8s %9s %9s %6s%n",
                "", "", "", "", "", "", "", "/GET", "/GET", "rd/GET", "read/GET", "/GET", "hits"));
        for (String phase : List.of("just opened", "engine warm")) {
            for (ScaleFigures s : sizes) {
                ColdGets g = phase.equals("just opened") ? s.cold() : s.warm();
                ColdGets f = phase.equals("just opened") ? first.cold() : first.warm();
                out.append(String.format(Locale.ROOT,
                        "%-10d %-13s %8.0f %7.1f %7.2f %7.2f %7.2f %8.3f %8.3f %8s %9s %9.0f %6s%n",
                        s.objects(), phase, g.getsPerSecond(), g.megabytesPerSecond(), g.p50Millis(), g.p99Millis(),
                        g.getsPerSecond() / f.getsPerSecond(), g.fileReadsPerGet(), g.blockReadsPerGet(),
                        format(g.deviceReadsPerGet()), format0(g.processReadBytesPerGet()), g.meanValueBytes(),
                        percent(g.blockCacheHitRatio())));
            }
        }
        out.append(String.format(Locale.ROOT, "%n%-10s %-24s %10s %12s %14s%n", "objects", "SSTables per level",
                "LSM MB", "block cache", "kill -9 acked"));
        for (ScaleFigures s : sizes) {
            out.append(String.format(Locale.ROOT, "%-10d %-24s %10.1f %9.0f MB %7d found %d%n", s.objects(),
                    s.filesPerLevel().toString(), s.lsmBytes() / 1e6, s.blockCacheBytes() / 1e6, s.crashWrites(),
                    s.crashWritesFound()));
        }
        out.append(String.join(System.lineSeparator(), "",
                "reads/GET: reads the engine issued to its files (block cache misses + value reads), page-cache hits"
                        + " included; blocks/GET: SSTable blocks read (block cache misses);",
                "device rd/GET: reads completed by the whole block device (other processes included); bytes read/GET:"
                        + " what this process read from the device (/proc/self/io read_bytes).",
                "just opened: the first GETs after the open, block cache empty; engine warm: after the page cache was"
                        + " dropped again with the engine kept open (values cold, LSM blocks cached).",
                "write amp: bytes appended to the engine's files / user bytes; the kernel's count of dirtied bytes (/proc/self/io: a whole large folio per dirtied block); the block device's sectors written (whole machine).",
                ""));
        return out.toString();
    }

    String jsonLine() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("benchmark", "scale");
        fields.put("threads", config.threads());
        fields.put("seed", config.seed());
        fields.put("get_seconds", config.getDuration().toMillis() / 1000.0);
        fields.put("block_cache_bytes", config.blockCacheBytes());
        fields.put("page_cache_dropped", config.dropCaches());
        fields.put("jdk", Runtime.version().toString());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ScaleFigures s : sizes) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("objects", s.objects());
            row.put("user_bytes", s.userBytes());
            row.put("disk_bytes", s.diskBytes());
            row.put("memory_bytes", s.memoryBytes());
            row.put("data_to_memory", s.dataToMemory());
            row.put("load_ops", s.loadObjectsPerSecond());
            row.put("load_mb_per_s", s.loadMegabytesPerSecond());
            row.put("load_p50_ms", s.loadP50Millis());
            row.put("load_p99_ms", s.loadP99Millis());
            row.put("settled", s.settled());
            row.put("write_amp", s.writeAmp());
            row.put("write_amp_kernel_count", s.writeAmpKernelCount());
            row.put("write_amp_disk", s.writeAmpDisk());
            row.put("index_filter_bytes_per_object", s.indexAndFilterBytesPerObject());
            row.put("lsm_bytes_per_object", s.lsmBytesPerObject());
            row.put("files_per_level", s.filesPerLevel());
            row.put("close_ms", s.closeMillis());
            row.put("open_after_close_ms", s.openAfterCloseMillis());
            row.put("open_after_kill_ms", s.openAfterKillMillis());
            row.put("kill_acked_writes", s.crashWrites());
            row.put("kill_acked_writes_found", s.crashWritesFound());
            row.put("cold", gets(s.cold()));
            row.put("warm", gets(s.warm()));
            rows.add(row);
        }
        fields.put("sizes", rows);
        return Json.object(fields);
    }

    private static Map<String, Object> gets(ColdGets g) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("gets", g.gets());
        row.put("get_ops", g.getsPerSecond());
        row.put("get_mb_per_s", g.megabytesPerSecond());
        row.put("get_p50_ms", g.p50Millis());
        row.put("get_p99_ms", g.p99Millis());
        row.put("file_reads_per_get", g.fileReadsPerGet());
        row.put("block_reads_per_get", g.blockReadsPerGet());
        row.put("device_reads_per_get", g.deviceReadsPerGet());
        row.put("process_read_bytes_per_get", g.processReadBytesPerGet());
        row.put("device_read_bytes_per_get", g.deviceReadBytes() / Math.max(1, g.gets()));
        row.put("mean_value_bytes", g.meanValueBytes());
        row.put("block_cache_hit_ratio", g.blockCacheHitRatio());
        return row;
    }

    private static String format(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String format0(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
    }

    private static String percent(double ratio) {
        return Double.isNaN(ratio) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", ratio * 100);
    }
}
