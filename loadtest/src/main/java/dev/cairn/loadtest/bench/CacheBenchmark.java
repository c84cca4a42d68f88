package dev.cairn.loadtest.bench;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.Table;
import dev.cairn.engine.RowCacheStats;
import dev.cairn.engine.fs.DeviceProfile;
import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.RoutingFileSystem;
import dev.cairn.engine.fs.SimulatedDeviceFileSystem;
import dev.cairn.engine.Row;
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
 * The row cache experiment of the hybrid SSD/HDD key-value store paper (docs/references.md) on Cairn's engine. The capacity tier, which holds every
 * SSTable ({@code fastLevels = 0}, as the hybrid-store paper kept all its SSTables on disks), sits on a
 * simulated 7200 rpm disk; the fast tier (commit log, catalogue, SSD row cache) on the real disk.
 *
 * <ol>
 *   <li><b>build</b>: load every record, then {@code rounds} rounds of updates drawn from the latest
 *       distribution, each followed by a flush, with compaction held back, so that records'
 *       versions sit in several SSTables. The simulated disk is not slowed while building.
 *   <li>Both configurations (memory row cache only; memory + SSD row cache) open side by side,
 *       each on its own copy of the built data and its own simulated disk. <b>warm-up</b>: each
 *       gets the same reads from the latest distribution until its cached rows stop growing, the
 *       disk again not slowed. Then each <b>mix</b> (95%, 85%, 75% reads; the rest updates of
 *       records drawn from the same distribution) runs for the measured duration per
 *       configuration, in slices alternating between the two, the measuring one's disk slowed.
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
    /** Measured mixes alternate between the configurations in slices of about this length. */
    static final Duration SLICE = Duration.ofSeconds(5);

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
            List<List<CacheMixFigures>> figures = measure(directory, build, versions);
            List<CacheMixFigures> memoryOnly = figures.get(0);
            List<CacheMixFigures> tiered = figures.get(1);
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

    /** One configuration's store: its copy of the data, its simulated disk and its open engine. */
    private final class Store implements AutoCloseable {
        final Setup setup;
        final Path root;
        final SwitchableSleeper sleeper = new SwitchableSleeper();
        final SimulatedDeviceFileSystem disk;
        final AtomicIntegerArray versions;
        final Engine engine;
        final Table table;

        Store(Setup setup, Path build, Path root, AtomicIntegerArray builtVersions) throws IOException {
            this.setup = setup;
            this.root = root;
            copyTree(build, root);
            versions = new AtomicIntegerArray(builtVersions.length());
            for (int i = 0; i < versions.length(); i++) {
                versions.set(i, builtVersions.get(i));
            }
            disk = new SimulatedDeviceFileSystem(new LocalFileSystem(), DeviceProfile.HDD_7200, sleeper);
            RoutingFileSystem fs = RoutingFileSystem.builder(new LocalFileSystem())
                    .route(root.resolve("capacity"), disk).build();
            Engine opened = null;
            try {
                opened = Engine.open(options(root).fileSystem(fs)
                        .rowCacheBytes(config.memoryCacheBytes())
                        .ssdCacheBytes(setup == Setup.TIERED ? config.ssdCacheBytes() : 0)
                        .build());
                table = opened.table(TABLE);
            } catch (IOException | RuntimeException e) {
                if (opened != null) {
                    opened.close();
                }
                EngineBenchmark.deleteRecursively(root);
                throw e;
            }
            engine = opened;
        }

        @Override
        public void close() throws IOException {
            sleeper.on(false);
            try {
                engine.close();
            } finally {
                EngineBenchmark.deleteRecursively(root);
            }
        }
    }

    /** What one configuration did in one mix, summed over its slices. */
    private static final class Tally {
        long reads;
        long operations;
        long elapsedNanos;
        long memoryHits;
        long ssdHits;
        long misses;
        long deviceReads;
        final Histogram readLatencies = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);

        CacheMixFigures figures(double readShare, RowCacheStats end) {
            boolean any = readLatencies.getTotalCount() > 0;
            return new CacheMixFigures(readShare, reads, operations - reads, elapsedNanos,
                    any ? readLatencies.getValueAtPercentile(50) / 1e6 : Double.NaN,
                    any ? readLatencies.getValueAtPercentile(99) / 1e6 : Double.NaN,
                    any ? readLatencies.getMean() / 1e6 : Double.NaN,
                    memoryHits, ssdHits, misses, deviceReads, end.memoryEntries(),
                    end.ssdEntries());
        }
    }

    /**
     * Opens both configurations, warms each, then measures each mix in slices that alternate
     * between them (which goes first alternates too), so that the machine's busier moments fall
     * on both alike. Only the measuring configuration's disk is slowed at any time.
     */
    private List<List<CacheMixFigures>> measure(Path directory, Path build, AtomicIntegerArray versions)
            throws IOException {
        try (Store memoryOnly = new Store(Setup.MEMORY_ONLY, build, directory.resolve("memory-only"), versions);
                Store tiered = new Store(Setup.TIERED, build, directory.resolve("tiered"), versions)) {
            List<Store> stores = List.of(memoryOnly, tiered);
            for (Store store : stores) {
                long warmupReads = warmUp(store.setup, store.engine, store.table, store.versions);
                RowCacheStats warm = store.engine.stats().rowCache();
                log.printf("%s: after %d warm-up reads %d rows in memory, %d on SSD (%d cascaded, %d dropped)%n",
                        store.setup.label, warmupReads, warm.memoryEntries(),
                        warm.ssdEntries(), warm.cascaded(), warm.cascadeDropped());
                log.flush();
            }
            List<List<CacheMixFigures>> figures = List.of(new ArrayList<>(), new ArrayList<>());
            int slices = Math.max(1, (int) (config.measureDuration().toMillis() / SLICE.toMillis()));
            Duration slice = config.measureDuration().dividedBy(slices);
            for (int m = 0; m < config.readShares().size(); m++) {
                double readShare = config.readShares().get(m);
                Tally[] tallies = {new Tally(), new Tally()};
                SplittableRandom[][] randoms = new SplittableRandom[2][config.threads()];
                for (int s = 0; s < 2; s++) {
                    for (int w = 0; w < config.threads(); w++) {
                        randoms[s][w] = new SplittableRandom(Mix.mix(config.seed(), w, m, READ_SALT));
                    }
                }
                log.printf("%.0f%% reads: %d slices of %s per configuration ...%n", readShare * 100, slices, slice);
                log.flush();
                for (int n = 0; n < slices; n++) {
                    for (int turn = 0; turn < 2; turn++) {
                        int s = (n + turn) % 2;
                        Store store = stores.get(s);
                        store.sleeper.on(true);
                        try {
                            measureSlice(store, readShare, slice, randoms[s], tallies[s]);
                        } finally {
                            store.sleeper.on(false);
                        }
                    }
                }
                for (int s = 0; s < 2; s++) {
                    CacheMixFigures f = tallies[s].figures(readShare, stores.get(s).engine.stats().rowCache());
                    figures.get(s).add(f);
                    log.printf("%s, %.0f%% reads: %.0f ops/s, read p99 %.1f ms, hit ratio %.3f%n",
                            stores.get(s).setup.label, readShare * 100, f.opsPerSecond(), f.readP99Millis(),
                            f.hitRatio());
                }
                log.flush();
            }
            return figures;
        }
    }

    /**
     * Reads from the latest distribution, in chunks of one read per record, at least
     * {@code warmupReads} and at most {@code maxWarmupReads}, stopping once a chunk grows the rows
     * cached (both tiers) by less than {@link #WARM_GROWTH}: the hybrid-store paper's rule of warming until the
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
            long cached = s.memoryEntries() + (s.ssdEntries());
            if (done >= config.warmupReads() && cached - lastCached < cached * WARM_GROWTH) {
                break;
            }
            lastCached = cached;
        }
        return done;
    }

    private void measureSlice(Store store, double readShare, Duration slice, SplittableRandom[] randoms, Tally tally)
            throws IOException {
        int threads = config.threads();
        Histogram[] readLatencies = new Histogram[threads];
        long[] reads = new long[threads];
        for (int w = 0; w < threads; w++) {
            readLatencies[w] = new Histogram(HIGHEST_TRACKABLE_NANOS, 3);
        }
        RowCacheStats before = store.engine.stats().rowCache();
        long deviceBefore = store.disk.accesses() + store.disk.sequentialReads();
        ParallelPhase.Result result = ParallelPhase.run(store.setup.json, threads, Long.MAX_VALUE, slice, (worker, n) -> {
            SplittableRandom random = randoms[worker];
            boolean isRead = random.nextDouble() < readShare;
            long i = latest.item(random.nextDouble());
            if (isRead) {
                long start = System.nanoTime();
                read(store.table, store.versions, i);
                readLatencies[worker].recordValue(Math.min(HIGHEST_TRACKABLE_NANOS, System.nanoTime() - start));
                reads[worker]++;
            } else {
                update(store.table, store.versions, i);
            }
        });
        RowCacheStats after = store.engine.stats().rowCache();
        tally.deviceReads += store.disk.accesses() + store.disk.sequentialReads() - deviceBefore;
        tally.memoryHits += after.memoryHits() - before.memoryHits();
        tally.ssdHits += after.ssdHits() - before.ssdHits();
        tally.misses += after.ssdMisses() - before.ssdMisses();
        tally.operations += result.operations();
        tally.elapsedNanos += result.elapsedNanos();
        for (int w = 0; w < threads; w++) {
            tally.readLatencies.add(readLatencies[w]);
            tally.reads += reads[w];
        }
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
            long now = s.cascaded() + s.cascadeDropped() + s.ssdBytesWritten();
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
