package dev.cairn.loadtest.bench;

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
 * {@code bench catalogue}: space and speed of object-metadata rows with the schema catalogue
 * against self-describing rows. Progress goes to stderr.
 *
 * <p>Thread-safety: picocli fills and calls one instance once, from one thread.
 */
@Command(name = "catalogue", mixinStandardHelpOptions = true,
        versionProvider = dev.cairn.loadtest.version.ManifestVersion.class,
        description = {
            "The schema catalogue's benchmark: object-metadata rows stored catalogued and self-describing",
            "in two engines; bytes on disk, put and get throughput. Prints a table and, last, one JSON line."})
public final class CatalogueBenchCommand implements Callable<Integer> {

    public static final long DEFAULT_OBJECTS = 200_000;
    public static final int DEFAULT_THREADS = 8;
    public static final long DEFAULT_SEED = 1;
    public static final int DEFAULT_GET_SECONDS = 10;

    @Spec
    CommandSpec spec;

    @Option(names = "--objects", description = "rows per store (default: ${DEFAULT-VALUE})")
    long objects = DEFAULT_OBJECTS;

    @Option(names = "--threads", description = "concurrent writers and readers (default: ${DEFAULT-VALUE})")
    int threads = DEFAULT_THREADS;

    @Option(names = "--seed", description = "seed of keys, rows and reads (default: ${DEFAULT-VALUE})")
    long seed = DEFAULT_SEED;

    @Option(names = "--get-seconds", description = "measured get time per store (default: ${DEFAULT-VALUE})")
    int getSeconds = DEFAULT_GET_SECONDS;

    @Option(names = "--dir", description = "directory for the stores' data (default: a new temporary directory)")
    Path dir;

    @Option(names = "--keep", description = "keep the stores' data after the run")
    boolean keep;

    @Override
    public Integer call() throws IOException {
        CatalogueBenchConfig config = new CatalogueBenchConfig(objects, threads, seed, Duration.ofSeconds(getSeconds));
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter log = spec.commandLine().getErr();
        boolean temporary = dir == null;
        Path directory = temporary ? Files.createTempDirectory("cairn-bench-catalogue-") : dir;
        try {
            CatalogueBenchmark.Result result = new CatalogueBenchmark(config, log).run(directory, keep);
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
