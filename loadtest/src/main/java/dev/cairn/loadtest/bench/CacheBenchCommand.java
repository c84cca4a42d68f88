package dev.cairn.loadtest.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench cache}: the SSD row cache experiment of the hybrid SSD/HDD key-value store paper (docs/references.md). Progress goes to stderr.
 *
 * <p>Thread-safety: picocli fills and calls one instance once, from one thread.
 */
@Command(name = "cache", mixinStandardHelpOptions = true,
        versionProvider = dev.cairn.loadtest.version.ManifestVersion.class,
        description = {
            "The hybrid SSD/HDD store paper's row cache experiment: SSTables on a simulated 7200 rpm disk, a latest-distribution",
            "workload (95%, 85%, 75% reads), memory-only row cache against memory + SSD row cache;",
            "prints a table and, last, one JSON line. docs/engine-benchmarks.md explains each figure."})
public final class CacheBenchCommand implements Callable<Integer> {

    public static final long DEFAULT_OBJECTS = 100_000;
    public static final int DEFAULT_THREADS = 32;
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_SECONDS = 15;
    public static final int DEFAULT_ROUNDS = 3;
    /** About 12% of the default records' rows, so the hot set (twice that) is about a quarter of them. */
    public static final long DEFAULT_MEMORY_CACHE_BYTES = 6L << 20;
    /**
     * Four times the memory cache: room for the hot set (twice the memory cache's rows) about
     * twice over, as SSD space is cheap next to memory. With room for the hot set alone (12 MiB)
     * the gain falls to about the hybrid-store paper's; docs/benchmarks.md gives both.
     */
    public static final long DEFAULT_SSD_CACHE_BYTES = 24L << 20;
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 0;

    @Spec
    CommandSpec spec;

    @Option(names = "--objects", description = "records (default: ${DEFAULT-VALUE})")
    long objects = DEFAULT_OBJECTS;

    @Option(names = "--threads", description = "concurrent clients (default: ${DEFAULT-VALUE})")
    int threads = DEFAULT_THREADS;

    @Option(names = "--seed", description = "seed of keys, rows and requests (default: ${DEFAULT-VALUE})")
    long seed = DEFAULT_SEED;

    @Option(names = "--seconds", description = "length of each measured mix, per configuration (default: ${DEFAULT-VALUE})")
    int seconds = DEFAULT_SECONDS;

    @Option(names = "--rounds", description = "update rounds after the load, each flushed to its own SSTables (default: ${DEFAULT-VALUE})")
    int rounds = DEFAULT_ROUNDS;

    @Option(names = "--updates-per-round", description = "updates per round (default: half the records)")
    Long updatesPerRound;

    @Option(names = "--warmup-reads", description = "least warm-up reads per configuration (default: five per record)")
    Long warmupReads;

    @Option(names = "--max-warmup-reads",
            description = "most warm-up reads per configuration; warming stops earlier once the cached rows stop growing"
                    + " (default: thirty per record)")
    Long maxWarmupReads;

    @Option(names = "--read-shares", split = ",",
            description = "the measured mixes' shares of reads; the first gives the headline (default: 0.95,0.85,0.75)")
    List<Double> readShares = List.of(0.95, 0.85, 0.75);

    @Option(names = "--memory-cache-bytes", description = "memory row cache, both configurations (default: ${DEFAULT-VALUE})")
    long memoryCacheBytes = DEFAULT_MEMORY_CACHE_BYTES;

    @Option(names = "--ssd-cache-bytes", description = "SSD row cache of the tiered configuration (default: ${DEFAULT-VALUE})")
    long ssdCacheBytes = DEFAULT_SSD_CACHE_BYTES;

    @Option(names = "--block-cache-bytes", description = "SSTable block cache, both configurations (default: ${DEFAULT-VALUE})")
    long blockCacheBytes = DEFAULT_BLOCK_CACHE_BYTES;

    @Option(names = "--dir", description = "directory for the stores' data (default: a new temporary directory)")
    Path dir;

    @Option(names = "--keep", description = "keep the built data set after the run")
    boolean keep;

    @Override
    public Integer call() throws IOException {
        CacheBenchConfig config = new CacheBenchConfig(objects, threads, seed, rounds,
                updatesPerRound == null ? objects / 2 : updatesPerRound,
                warmupReads == null ? 5 * objects : warmupReads,
                maxWarmupReads == null ? Math.max(30 * objects, warmupReads == null ? 0 : warmupReads) : maxWarmupReads,
                Duration.ofSeconds(seconds), readShares,
                memoryCacheBytes, ssdCacheBytes, blockCacheBytes);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter log = spec.commandLine().getErr();
        boolean temporary = dir == null;
        Path directory = temporary ? Files.createTempDirectory("cairn-bench-cache-") : dir;
        try {
            CacheBenchmark.Result result = new CacheBenchmark(config, log).run(directory, keep);
            out.println();
            out.print(result.table());
            out.println(result.jsonLine());
            out.flush();
            return 0;
        } finally {
            if (temporary && !keep) {
                EngineBenchmark.deleteRecursively(directory);
            }
        }
    }
}
