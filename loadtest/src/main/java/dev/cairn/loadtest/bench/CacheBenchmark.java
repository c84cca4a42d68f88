package dev.cairn.loadtest.bench;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.Table;
import dev.cairn.engine.cache.RowCacheStats;
import dev.cairn.engine.fs.DeviceProfile;
import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.RoutingFileSystem;
import dev.cairn.engine.fs.SimulatedDeviceFileSystem;
import dev.cairn.engine.row.Row;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * Seed 000's row cache experiment (§VI.A) on Cairn's engine. The capacity tier, which holds every
 * SSTable ({@code fastLevels = 0}, as the seed kept all its SSTables on disks), sits on a
 * simulated 7200 rpm disk; the fast tier (commit log, catalogue, SSD row cache) on the real disk.
 *
 * <ol>
 *   <li><b>build</b>: load every record, then {@code rounds} rounds of updates drawn from the latest
 *       distribution, each followed by a flush, with compaction held back, so that records'
 *       versions sit in several SSTables. The simulated disk is not slowed while building.
 *   <li>For each configuration (memory row cache only, then memory + SSD row cache), on its own
 *       copy of the built data: <b>warm-up</b> with the same reads from the latest distribution
 *       until the cached rows stop growing, the disk again not slowed; then each <b>mix</b> (95%, 85%, 75% reads; the rest updates of
 *       records drawn from the same distribution) for the measured duration with the disk slowed.
 * </ol>
 * Both configurations see the same data, the same request sequences per client and the same
 * durations. Every read is checked against the record it asked for.
 *
 * <p>Thread-safety: one run at a time per instance.
 */
public final class CacheBenchmark {

    static final String TABLE = "usertable";
    private static final long READ_SALT = 0x7265616473616c74L;
    private static final long BUILD_SALT = 0x6275696c64736c74L;
    private static final long WARM_SALT = 0x7761726d73616c74L;
    private static final long HIGHEST_TRACKABLE_NANOS = 600_000_000_000L;
    /** Warm-up ends when a chunk of reads grows the cached rows by less than this fraction. */
    static final double WARM_GROWTH = 0.005;

    /** The two configurations compared. */
    enum Setup {
        MEMORY_ONLY("memory only", "memory_only"),
        TIERED("memory + SSD", "tiered");

        final String label;
        final String json;

        Setup(String label, String json) {
            this.label = label;
            this.json = json;
        }
    }

    private final CacheBenchConfig config;
    private final PrintWriter log;
    private final YcsbRows rows;
    private final LatestDistribution latest;

    public CacheBenchmark(CacheBenchConfig config, PrintWriter log) {
        this.config = config;
        this.log = log;
        this.rows = new YcsbRows(config.seed());
        this.latest = new LatestDistribution(config.objects());
    }

    /** The figures of each configuration per mix (in {@link CacheBenchConfig#readShares()} order), the table and the JSON line. */
    public record Result(List<CacheMixFigures> memoryOnly, List<CacheMixFigures> tiered, String table, String jsonLine) {
    }

    /** Runs the experiment in {@code directory} (created if absent, must be empty). */
    public Result run(Path directory, boolean keepData) throws IOException {
        Files.createDirectories(directory);
        try (Stream<Path> entries = Files.list(directory)) {
            if (entries.findAny().isPresent()) {
                throw new IOException(directory + " is not empty; give the benchmark a fresh --dir");
            }
        }
        Path build = directory.resolve("build");
        try {
            AtomicIntegerArray versions = build(build);
            List<CacheMixFigures> memoryOnly = runSetup(Setup.MEMORY_ONLY, build, directory.resolve("memory-only"), versions);
            List<CacheMixFigures> tiered = runSetup(Setup.TIERED, build, directory.resolve("tiered"), versions);
            CacheReport report = new CacheReport(config, latest, memoryOnly, tiered);
            return new Result(memoryOnly, tiered, report.table(), report.jsonLine());
        } finally {
            if (!keepData) {
                EngineBenchmark.deleteRecursively(build);
            }
        }
    }

    private EngineOptions.Builder options(Path root) {
        return EngineOptions.builder(root.resolve("fast"))
                .capacityDirectory(root.resolve("capacity"))
                .fastLevels(0)
                .blockCacheBytes(config.blockCacheBytes())
                .syncPolicy(SyncPolicy.PERIODIC)
                // Held back so that the rounds' versions stay in separate SSTables.
                .level0CompactionTrigger(config.rounds() + 2);
    }

    private AtomicIntegerArray build(Path root) throws IOException {
        Files.createDirectories(root.resolve("fast"));
        Files.createDirectories(root.resolve("capacity"));
        AtomicIntegerArray versions = new AtomicIntegerArray(Math.toIntExact(config.objects()));
        try (Engine engine = Engine.open(options(root).rowCacheBytes(0).build())) {
            Table table = engine.table(TABLE);
            phase("build: load", config.objects(), ParallelPhase.NO_LIMIT,
                    (worker, i) -> table.putRow(rows.key(i), rows.row(i, 0)));
            engine.flush();
            for (int round = 1; round <= config.rounds(); round++) {
                int r = round;
                phase("build: update round " + round, config.updatesPerRound(), ParallelPhase.NO_LIMIT, (worker, n) -> {
                    long i = latest.item(Mix.unit(Mix.mix(config.seed(), n, r, BUILD_SALT)));
                    update(table, versions, i);
                });
                engine.flush();
            }
            log.printf("build: SSTables per level %s%n", engine.stats().filesPerLevel());
            log.flush();
        }
        return versions;
    }

    private void update(Table table, AtomicIntegerArray versions, long i) throws IOException {
        int version = versions.incrementAndGet((int) i);
        table.putRow(rows.key(i), rows.row(i, version));
    }

    private List<CacheMixFigures> runSetup(Setup setup, Path build, Path root, AtomicIntegerArray builtVersions)
            throws IOException {
        copyTree(build, root);
        AtomicIntegerArray versions = new AtomicIntegerArray(builtVersions.length());
        for (int i = 0; i < versions.length(); i++) {
            versions.set(i, builtVersions.get(i));
        }
        SwitchableSleeper sleeper = new SwitchableSleeper();
        SimulatedDeviceFileSystem disk = new SimulatedDeviceFileSystem(new LocalFileSystem(), DeviceProfile.HDD_7200,
                sleeper);
        RoutingFileSystem fs = RoutingFileSystem.builder(new LocalFileSystem())
                .route(root.resolve("capacity"), disk).build();
        EngineOptions options = options(root).fileSystem(fs)
                .rowCacheBytes(config.memoryCacheBytes())
                .ssdCacheBytes(setup == Setup.TIERED ? config.ssdCacheBytes() : 0)
                .build();
        List<CacheMixFigures> figures = new ArrayList<>();
        try (Engine engine = Engine.open(options)) {
            Table table = engine.table(TABLE);
            long warmupReads = warmUp(setup, engine, table, versions);
            RowCacheStats warm = engine.stats().rowCache();
            log.printf("%s: after %d warm-up reads %d rows in memory, %d on SSD (%d cascaded, %d dropped)%n",
                    setup.label, warmupReads, warm.memoryEntries(), warm.ssd() == null ? 0 : warm.ssd().entries(),
                    warm.cascaded(), warm.cascadeDropped());
            log.flush();
            for (int m = 0; m < config.readShares().size(); m++) {
                sleeper.on(true);
                try {
                    figures.add(measureMix(setup, engine, table, disk, versions, m));
                } finally {
                    sleeper.on(false);
                }
            }
        } finally {
            EngineBenchmark.deleteRecursively(root);
        }
        return figures;
    }

    /**
     * Reads from the latest distribution, in chunks of one read per record, at least
     * {@code warmupReads} and at most {@code maxWarmupReads}, stopping once a chunk grows the rows
     * cached (both tiers) by less than {@link #WARM_GROWTH}: the seed's rule of warming until the
     * cache is full, applied alike to both configurations. Returns the reads done.
     */
    private long warmUp(Setup setup, Engine engine, Table table, AtomicIntegerArray versions) throws IOException {
        long chunk = config.objects();
        long done = 0;
        long lastCached = 0;
        log.printf("%s: warm-up ...%n", setup.label);
        log.flush();
        while (done < config.maxWarmupReads()) {
            long base = done;
            long reads = Math.min(chunk, config.maxWarmupReads() - done);
            ParallelPhase.run("warm-up", config.threads(), reads, ParallelPhase.NO_LIMIT, (worker, n) -> {
                long i = latest.item(Mix.unit(Mix.mix(config.seed(), base + n, 0, WARM_SALT)));
                read(table, versions, i);
            });
            done += reads;
            awaitCascades(engine);
            RowCacheStats s = engine.stats().rowCache();
            long cached = s.memoryEntries() + (s.ssd() == null ? 0 : s.ssd().entries());
            if (done >= config.warmupReads() && cached - lastCached < cached * WARM_GROWTH) {
                break;
            }
            lastCached = cached;
        }
        return done;
    }

    private CacheMixFigures measureMix(Setup setup, Engine engine, Table table, SimulatedDeviceFileSystem disk,
            AtomicIntegerArray versions, int mixIndex) throws IOException {
        double readShare = config.readShares().get(mixIndex);
        int threads = config.threads();
        SplittableRandom[] randoms = new SplittableRandom[threads];
        Histogram[] readLatencies = new Histogram[threads];
        long[] reads = new long[threads];
        for (int w = 0; w < threads; w++) {
            randoms[w] = new SplittableRandom(Mix.mix(config.seed(), w, mixIndex, READ_SALT));
            readLatencies[w] = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
        }
        RowCacheStats before = engine.stats().rowCache();
        long deviceBefore = disk.accesses() + disk.sequentialReads();
        String name = String.format("%s: %.0f%% reads", setup.label, readShare * 100);
        ParallelPhase.Result result = phase(name, Long.MAX_VALUE, config.measureDuration(), (worker, n) -> {
            SplittableRandom random = randoms[worker];
            boolean isRead = random.nextDouble() < readShare;
            long i = latest.item(random.nextDouble());
            if (isRead) {
                long start = System.nanoTime();
                read(table, versions, i);
                readLatencies[worker].recordValue(Math.min(HIGHEST_TRACKABLE_NANOS, System.nanoTime() - start));
                reads[worker]++;
            } else {
                update(table, versions, i);
            }
        });
        RowCacheStats after = engine.stats().rowCache();
        long deviceReads = disk.accesses() + disk.sequentialReads() - deviceBefore;
        Histogram merged = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
        long readCount = 0;
        for (int w = 0; w < threads; w++) {
            merged.add(readLatencies[w]);
            readCount += reads[w];
        }
        boolean any = merged.getTotalCount() > 0;
        long memoryHits = after.memoryHits() - before.memoryHits();
        long ssdHits = after.ssdHits() - before.ssdHits();
        long misses = after.ssdMisses() - before.ssdMisses();
        return new CacheMixFigures(readShare, readCount, result.operations() - readCount, result.elapsedNanos(),
                any ? merged.getValueAtPercentile(50) / 1e6 : Double.NaN,
                any ? merged.getValueAtPercentile(99) / 1e6 : Double.NaN,
                any ? merged.getMean() / 1e6 : Double.NaN,
                memoryHits, ssdHits, misses, deviceReads, after.memoryEntries(),
                after.ssd() == null ? 0 : after.ssd().entries());
    }

    private void read(Table table, AtomicIntegerArray versions, long i) throws IOException {
        Row row = table.getRow(rows.key(i));
        int version = rows.versionIn(row, i);
        if (version < 0 || version > versions.get((int) i)) {
            throw new IOException("record " + i + " read back wrong: " + (row == null ? "absent" : "version " + version
                    + " of at most " + versions.get((int) i)) + " (seed " + config.seed() + ")");
        }
    }

    /** Waits until entries evicted from memory have been written to the SSD tier (or dropped). */
    private static void awaitCascades(Engine engine) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long last = -1;
        int quiet = 0;
        while (quiet < 3 && System.nanoTime() - deadline < 0) {
            RowCacheStats s = engine.stats().rowCache();
            long now = s.cascaded() + s.cascadeDropped() + (s.ssd() == null ? 0 : s.ssd().bytesWritten());
            quiet = now == last ? quiet + 1 : 0;
            last = now;
            try {
                TimeUnit.MILLISECONDS.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private ParallelPhase.Result phase(String name, long count, Duration limit, ParallelPhase.Operation operation)
            throws IOException {
        log.printf("%s ...%n", name);
        log.flush();
        ParallelPhase.Result result = ParallelPhase.run(name.split(":")[0].replace(' ', '-'), config.threads(), count,
                limit, operation);
        log.printf("%s: %d ops in %.1f s, %.0f ops/s, p99 %.2f ms%n", name, result.operations(),
                result.elapsedNanos() / 1e9, result.operationsPerSecond(), result.percentileMillis(99));
        log.flush();
        return result;
    }

    /** Copies a built store: SSTables are immutable and hard-linked, everything else is copied. */
    private static void copyTree(Path from, Path to) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(from)) {
            paths = walk.toList();
        }
        for (Path source : paths) {
            Path target = to.resolve(from.relativize(source).toString());
            if (Files.isDirectory(source)) {
                Files.createDirectories(target);
            } else if (source.getFileName().toString().endsWith(".sst")) {
                Files.createLink(target, source);
            } else {
                Files.copy(source, target);
            }
        }
    }
}
