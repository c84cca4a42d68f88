package dev.cairn.loadtest.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.rocksdb.RocksDB;

/**
 * The engine benchmark: the same image workload on Cairn's engine and on RocksDB, one store after
 * the other, each in its own subdirectory ({@code cairn/}, {@code rocksdb/}) of the run's
 * directory, deleted after its run unless kept.
 *
 * <p>Thread-safety: one run at a time per instance.
 */
public final class EngineBenchmark {

    private final BenchConfig config;
    private final ImageWorkload workload;
    private final PrintWriter log;

    public EngineBenchmark(BenchConfig config, PrintWriter log) {
        this.config = config;
        this.workload = new ImageWorkload(config.seed(), ImageSizeDistribution.images());
        this.log = log;
    }

    /**
     * Runs the stores not skipped and returns the report.
     *
     * @throws UnsupportedOperationException when Cairn's engine cannot be opened in this build
     */
    public Result run(Path directory, boolean runCairn, boolean runRocksdb, boolean keepData) throws IOException {
        Files.createDirectories(directory);
        StoreFigures cairn = null;
        StoreFigures rocksdb = null;
        if (runCairn) {
            cairn = runOne("cairn", CairnStore::open, directory.resolve("cairn"), keepData);
        }
        if (runRocksdb) {
            rocksdb = runOne("rocksdb", RocksDbStore::open, directory.resolve("rocksdb"), keepData);
        }
        Report report = new Report(config, workload.sizes(), cairn, rocksdb, rocksdbVersion());
        return new Result(cairn, rocksdb, report.table(), report.jsonLine());
    }

    /** The figures of each store run (null if skipped), the table and the JSON line. */
    public record Result(StoreFigures cairn, StoreFigures rocksdb, String table, String jsonLine) {
    }

    private StoreFigures runOne(String name, StoreRun.Opener opener, Path directory, boolean keepData) throws IOException {
        if (Files.exists(directory)) {
            try (Stream<Path> entries = Files.list(directory)) {
                if (entries.findAny().isPresent()) {
                    throw new IOException(directory + " is not empty; give the benchmark a fresh --dir");
                }
            }
        }
        Files.createDirectories(directory);
        log.printf("%s: %d objects, %d threads, in %s%n", name, config.objects(), config.threads(), directory);
        log.flush();
        try {
            return new StoreRun(name, config, workload, log).run(opener, directory);
        } finally {
            if (!keepData) {
                deleteRecursively(directory);
            }
        }
    }

    private static String rocksdbVersion() {
        RocksDB.loadLibrary();
        return RocksDB.rocksdbVersion().toString();
    }

    static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
