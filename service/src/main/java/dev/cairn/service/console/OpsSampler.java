package dev.cairn.service.console;

import dev.cairn.engine.Engine;
import dev.cairn.engine.RowCacheStats;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Measurement;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * The operations page's figures, read from the service's own meters (the S3 latency
 * histograms, error counters, cache counters) and, for the engine's row cache tiers, from the
 * engine's statistics. Sampled only when the page asks, at most once a second: each sample is
 * the difference from the one before (requests/s, p50 and p99 from the histogram buckets that
 * filled in between, errors/s, hit ratio per cache tier), so nothing runs while nobody looks.
 * Keeps the last {@value #KEEP} samples. Disk use per tier is walked at most every 10 s.
 *
 * <p>Thread-safe: {@link #poll} is synchronized.
 */
final class OpsSampler {
    static final int KEEP = 150;
    private static final long MIN_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long DISK_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    /** Cache tiers: name, hit meter, miss meter (meters absent on this store are left out). */
    private static final String[][] TIERS = {
        {"object cache", "cairn.cache.objects.hits", "cairn.cache.objects.misses"},
        {"block cache", "cairn.engine.block.cache.hits", "cairn.engine.block.cache.misses"},
        {"row cache (rows)", "cairn.row.cache.row.hits", "cairn.row.cache.row.misses"},
        {"row cache (content)", "cairn.row.cache.content.hits", "cairn.row.cache.content.misses"},
    };

    /** One point of the charts; ratios and percentiles are null when nothing happened in between. */
    record Sample(long at, double requestsPerSecond, Double p50Millis, Double p99Millis, double errorsPerSecond,
                  Map<String, Double> hitRatios) {
    }

    /** Cumulative counters at one moment. */
    private record Raw(long nanos, long requests, TreeMap<Double, Double> buckets, double errors, Map<String, double[]> tiers) {
    }

    private final MeterRegistry registry;
    private final Engine engine;
    private final Map<String, Path> tierDirs;
    private final LongSupplier nanoClock;
    private final ArrayDeque<Sample> samples = new ArrayDeque<>();
    private Raw last;
    private Map<String, Map<String, Long>> disk = Map.of();
    private long diskAt = Long.MIN_VALUE;

    /** {@code engine} null when the store has none; {@code tierDirs}: name → directory, in order. */
    OpsSampler(MeterRegistry registry, Engine engine, Map<String, Path> tierDirs, LongSupplier nanoClock) {
        this.registry = registry;
        this.engine = engine;
        this.tierDirs = tierDirs;
        this.nanoClock = nanoClock;
    }

    /** Takes a sample if a second has passed since the last; returns the samples kept, oldest first. */
    synchronized List<Sample> poll() {
        long now = nanoClock.getAsLong();
        if (last == null || now - last.nanos >= MIN_INTERVAL_NANOS) {
            Raw r = read(now);
            if (last != null) {
                samples.addLast(diff(last, r));
                if (samples.size() > KEEP) {
                    samples.removeFirst();
                }
            }
            last = r;
        }
        return new ArrayList<>(samples);
    }

    /** Bytes Cairn keeps per tier and the file system's free and total bytes under it. */
    synchronized Map<String, Map<String, Long>> disk() {
        long now = nanoClock.getAsLong();
        if (diskAt == Long.MIN_VALUE || now - diskAt >= DISK_INTERVAL_NANOS) {
            Map<String, Map<String, Long>> d = new LinkedHashMap<>();
            tierDirs.forEach((name, dir) -> d.put(name, usage(dir)));
            disk = d;
            diskAt = now;
        }
        return disk;
    }

    private Raw read(long now) {
        long requests = 0;
        TreeMap<Double, Double> buckets = new TreeMap<>();
        for (Timer t : registry.find("cairn.s3.requests").timers()) {
            requests += t.count();
            for (CountAtBucket b : t.takeSnapshot().histogramCounts()) {
                buckets.merge(b.bucket(TimeUnit.MILLISECONDS), b.count(), Double::sum);
            }
        }
        Map<String, double[]> tiers = new LinkedHashMap<>();
        for (String[] tier : TIERS) {
            Double hits = sum(tier[1]);
            Double misses = sum(tier[2]);
            if (hits != null && misses != null) {
                tiers.put(tier[0], new double[] {hits, misses});
            }
        }
        RowCacheStats rc = engine == null ? null : engine.stats().rowCache();
        if (rc != null) {
            tiers.put("engine row cache (memory)", new double[] {rc.memoryHits(), rc.memoryMisses()});
            tiers.put("engine row cache (SSD)", new double[] {rc.ssdHits(), rc.ssdMisses()});
        }
        Double errors = sum("cairn.s3.errors");
        return new Raw(now, requests, buckets, errors == null ? 0 : errors, tiers);
    }

    private Double sum(String name) {
        List<Meter> meters = new ArrayList<>(registry.find(name).meters());
        if (meters.isEmpty()) {
            return null;
        }
        double total = 0;
        for (Meter m : meters) {
            for (Measurement x : m.measure()) {
                total += x.getValue();
            }
        }
        return total;
    }

    private static Sample diff(Raw a, Raw b) {
        double seconds = (b.nanos - a.nanos) / 1e9;
        long n = b.requests - a.requests;
        Map<String, Double> ratios = new LinkedHashMap<>();
        b.tiers.forEach((name, hm) -> {
            double[] before = a.tiers.getOrDefault(name, new double[2]);
            double hits = hm[0] - before[0];
            double lookups = hits + hm[1] - before[1];
            ratios.put(name, lookups > 0 ? hits / lookups : null);
        });
        return new Sample(System.currentTimeMillis(), n / seconds, percentile(a.buckets, b.buckets, n, 0.50),
                percentile(a.buckets, b.buckets, n, 0.99), (b.errors - a.errors) / seconds, ratios);
    }

    /** The upper bound of the first histogram bucket that holds the quantile of the requests in between. */
    static Double percentile(TreeMap<Double, Double> before, TreeMap<Double, Double> after, long n, double q) {
        if (n <= 0 || after.isEmpty()) {
            return null;
        }
        double want = q * n;
        for (Map.Entry<Double, Double> e : after.entrySet()) {
            double cumulative = e.getValue() - before.getOrDefault(e.getKey(), 0.0);
            if (cumulative >= want) {
                return e.getKey();
            }
        }
        return after.lastKey();
    }

    private static Map<String, Long> usage(Path dir) {
        Map<String, Long> u = new LinkedHashMap<>();
        long bytes = 0;
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                bytes = files.filter(Files::isRegularFile).mapToLong(p -> {
                    try {
                        return Files.size(p);
                    } catch (IOException e) {
                        return 0;
                    }
                }).sum();
            } catch (IOException | java.io.UncheckedIOException e) {
                bytes = -1;
            }
        }
        u.put("used", bytes);
        try {
            FileStore fs = Files.getFileStore(Files.isDirectory(dir) ? dir : dir.toAbsolutePath().getParent());
            u.put("free", fs.getUsableSpace());
            u.put("total", fs.getTotalSpace());
        } catch (IOException | RuntimeException e) {
            u.put("free", -1L);
            u.put("total", -1L);
        }
        return u;
    }
}
