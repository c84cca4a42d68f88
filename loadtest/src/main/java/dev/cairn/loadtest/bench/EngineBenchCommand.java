package dev.cairn.loadtest.bench;

import dev.cairn.engine.EngineOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code bench engine}: the engine benchmark, Cairn next to RocksDB. Progress goes to stderr.
 *
 * <p>Thread-safety: picocli fills and calls one instance once, from one thread.
 */
@Command(name = "engine", mixinStandardHelpOptions = true,
        versionProvider = dev.cairn.loadtest.version.ManifestVersion.class,
        description = {
            "The engine benchmark: Cairn's engine next to RocksDB (BlobDB) on image-like objects.",
            "Loads the objects with every write durable, overwrites each once, then reads at random;",
            "prints a table and, last, one JSON line. docs/engine-benchmarks.md explains each figure."})
public final class EngineBenchCommand implements Callable<Integer> {

    /** The default object count: about 2.6 GB of values per store, some ten minutes for both stores. */
    public static final long DEFAULT_OBJECTS = 100_000;
    public static final int DEFAULT_THREADS = 16;
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_GET_SECONDS = 30;
    public static final long DEFAULT_MAX_GETS = 2_000_000;
    public static final int DEFAULT_SETTLE_SECONDS = 120;

    @Spec
    CommandSpec spec;

    @Option(names = "--objects", description = "objects per store (default: ${DEFAULT-VALUE})")
    long objects = DEFAULT_OBJECTS;

    @Option(names = "--dir", description = "directory for the stores' data (default: a new temporary directory)")
    Path dir;

    @Option(names = "--threads", description = "concurrent writers and readers (default: ${DEFAULT-VALUE})")
    int threads = DEFAULT_THREADS;

    @Option(names = "--seed", description = "seed of keys, sizes and contents (default: ${DEFAULT-VALUE})")
    long seed = DEFAULT_SEED;

    @Option(names = "--get-seconds", description = "length of the measured get phase (default: ${DEFAULT-VALUE})")
    int getSeconds = DEFAULT_GET_SECONDS;

    @Option(names = "--max-gets", description = "gets after which the get phase ends early (default: ${DEFAULT-VALUE})")
    long maxGets = DEFAULT_MAX_GETS;

    @Option(names = "--settle-seconds",
            description = "longest wait for background writes to go quiet after the overwrite (default: ${DEFAULT-VALUE})")
    int settleSeconds = DEFAULT_SETTLE_SECONDS;

    @Option(names = "--value-threshold",
            description = "values this large or larger are kept apart from the LSM, in both stores (default: ${DEFAULT-VALUE})")
    int valueThreshold = EngineOptions.DEFAULT_VALUE_THRESHOLD;

    @Option(names = "--block-cache-bytes", description = "block cache of each store (default: ${DEFAULT-VALUE})")
    long blockCacheBytes = EngineOptions.DEFAULT_BLOCK_CACHE_BYTES;

    @Option(names = "--skip-rocksdb", description = "run Cairn only")
    boolean skipRocksdb;

    @Option(names = "--skip-cairn", description = "run RocksDB only")
    boolean skipCairn;

    @Option(names = "--keep", description = "keep the stores' data after the run")
    boolean keep;

    @Override
    public Integer call() throws IOException {
        if (skipCairn && skipRocksdb) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "nothing to run: both stores skipped");
        }
        BenchConfig config = new BenchConfig(objects, threads, seed, valueThreshold, blockCacheBytes,
                Duration.ofSeconds(getSeconds), maxGets, Duration.ofSeconds(settleSeconds));
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter log = spec.commandLine().getErr();
        boolean temporary = dir == null;
        Path directory = temporary ? Files.createTempDirectory("cairn-bench-") : dir;
        try {
            EngineBenchmark.Result result = new EngineBenchmark(config, log).run(directory, !skipCairn, !skipRocksdb, keep);
            out.println();
            out.print(result.table());
            out.println(result.jsonLine());
            out.flush();
            return 0;
        } catch (UnsupportedOperationException e) {
            throw new UnsupportedOperationException("Cairn's engine cannot run in this build (" + e.getMessage()
                    + "); --skip-cairn runs RocksDB alone", e);
        } finally {
            if (temporary && !keep) {
                EngineBenchmark.deleteRecursively(directory);
            }
        }
    }
}
