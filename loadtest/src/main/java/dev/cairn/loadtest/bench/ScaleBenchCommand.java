package dev.cairn.loadtest.bench;

import dev.cairn.engine.EngineOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code bench scale}: the engine at growing object counts, one after the other, each in its own
 * directory deleted after its run. Progress goes to stderr.
 *
 * <p>Thread-safety: picocli fills and calls one instance once, from one thread.
 */
@Command(name = "scale", mixinStandardHelpOptions = true,
        versionProvider = dev.cairn.loadtest.version.ManifestVersion.class,
        description = {
            "The engine at growing object counts: load throughput, cold GETs (throughput, p50, p99, reads and",
            "bytes read per GET), index and filter memory per object, time to open after a clean stop and after",
            "kill -9, write amplification. Prints tables and, last, one JSON line. docs/load-benchmarks.md explains each figure."})
public final class ScaleBenchCommand implements Callable<Integer> {

    public static final String DEFAULT_SIZES = "100000,1000000,2000000";
    public static final int DEFAULT_THREADS = 16;
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_GET_SECONDS = 30;
    public static final long DEFAULT_MAX_GETS = 10_000_000;
    public static final int DEFAULT_SETTLE_SECONDS = 300;
    public static final int DEFAULT_CRASH_SECONDS = 5;
    public static final double DEFAULT_MIN_FREE_GB = 12;

    @Spec
    CommandSpec spec;

    @Option(names = "--sizes", split = ",", description = "object counts, smallest first (default: " + DEFAULT_SIZES + ")")
    List<Long> sizes = new ArrayList<>(List.of(100_000L, 1_000_000L, 2_000_000L));

    @Option(names = "--dir", description = "directory for the data, one subdirectory per count (default: a new temporary directory)")
    Path dir;

    @Option(names = "--threads", description = "concurrent writers and readers (default: ${DEFAULT-VALUE})")
    int threads = DEFAULT_THREADS;

    @Option(names = "--seed", description = "seed of keys, sizes and contents (default: ${DEFAULT-VALUE})")
    long seed = DEFAULT_SEED;

    @Option(names = "--get-seconds", description = "length of each GET phase (default: ${DEFAULT-VALUE})")
    int getSeconds = DEFAULT_GET_SECONDS;

    @Option(names = "--max-gets", description = "GETs after which a GET phase ends early (default: ${DEFAULT-VALUE})")
    long maxGets = DEFAULT_MAX_GETS;

    @Option(names = "--settle-seconds",
            description = "longest wait for background writes to go quiet after the load (default: ${DEFAULT-VALUE})")
    int settleSeconds = DEFAULT_SETTLE_SECONDS;

    @Option(names = "--crash-seconds", description = "how long the writer killed with SIGKILL writes first; 0 skips the kill -9 step (default: ${DEFAULT-VALUE})")
    int crashSeconds = DEFAULT_CRASH_SECONDS;

    @Option(names = "--block-cache-bytes", description = "the engine's block cache (default: ${DEFAULT-VALUE})")
    long blockCacheBytes = EngineOptions.DEFAULT_BLOCK_CACHE_BYTES;

    @Option(names = "--min-free-gb",
            description = "free space (GB) the run must leave on the data's file system: it refuses to start, or stops, "
                    + "rather than go below (default: ${DEFAULT-VALUE})")
    double minFreeGb = DEFAULT_MIN_FREE_GB;

    @Option(names = "--no-drop-caches",
            description = "do not drop the page cache before each open and GET phase (it is dropped when run as root)")
    boolean noDropCaches;

    @Option(names = "--keep", description = "keep each count's data after its run")
    boolean keep;

    @Override
    public Integer call() throws IOException {
        if (sizes.isEmpty() || sizes.stream().anyMatch(n -> n < 1)) {
            throw new ParameterException(spec.commandLine(), "--sizes needs object counts of at least 1, got " + sizes);
        }
        boolean dropCaches = !noDropCaches && PageCache.canDrop();
        ScaleConfig config = new ScaleConfig(threads, seed, Duration.ofSeconds(getSeconds), maxGets,
                Duration.ofSeconds(settleSeconds), Duration.ofSeconds(crashSeconds), blockCacheBytes,
                Math.round(minFreeGb * 1e9), dropCaches);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter log = spec.commandLine().getErr();
        if (!dropCaches) {
            log.println("scale: the page cache is not dropped (" + (noDropCaches ? "--no-drop-caches" : "not root")
                    + "): GETs are cold only where the data exceeds memory");
        }
        boolean temporary = dir == null;
        Path root = temporary ? Files.createTempDirectory("cairn-scale-") : dir;
        Files.createDirectories(root);
        ScaleRun run = new ScaleRun(config, log);
        List<ScaleFigures> figures = new ArrayList<>();
        try {
            for (long objects : sizes) {
                Path directory = root.resolve("objects-" + objects);
                if (Files.exists(directory)) {
                    throw new IOException(directory + " exists; give the benchmark a fresh --dir");
                }
                Files.createDirectories(directory);
                Thread removeOnExit = new Thread(() -> deleteQuietly(directory), "scale-cleanup");
                if (!keep) {
                    Runtime.getRuntime().addShutdownHook(removeOnExit);
                }
                try {
                    figures.add(run.run(objects, directory));
                } finally {
                    if (!keep) {
                        EngineBenchmark.deleteRecursively(directory);
                        Runtime.getRuntime().removeShutdownHook(removeOnExit);
                    }
                }
            }
        } finally {
            if (temporary && !keep) {
                EngineBenchmark.deleteRecursively(root);
            }
        }
        ScaleReport report = new ScaleReport(config, figures);
        out.println();
        out.print(report.table());
        out.println(report.jsonLine());
        out.flush();
        return 0;
    }

    private static void deleteQuietly(Path directory) {
        try {
            EngineBenchmark.deleteRecursively(directory);
        } catch (IOException | RuntimeException e) {
            System.err.println("scale: could not delete " + directory + ": " + e.getMessage());
        }
    }
}
