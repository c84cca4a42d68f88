package dev.cairn.loadtest.bench;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.Table;
import dev.cairn.engine.Row;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The schema catalogue's benchmark: the same object-metadata rows ({@link ObjectMetadataRows})
 * stored in two engines side by side, one through {@link Table#putRow} (catalogued: each row
 * carries a schema id) and one opened with {@link EngineOptions.Builder#catalogueRows} false
 * (each row carries its column names). Measures the encoded rows' bytes, the SSTable bytes after a flush and a full
 * compaction, and put and get throughput of both. Timed work alternates between the two engines
 * in slices, so that the machine's slower moments fall on both alike.
 *
 * <p>Thread-safety: one run at a time per instance.
 */
public final class CatalogueBenchmark {

    static final String TABLE = "objects";
    private static final int PUT_SLICES = 8;
    private static final long READ_SALT = 0x676574736c696365L;

    private final CatalogueBenchConfig config;
    private final PrintWriter log;
    private final ObjectMetadataRows rows;

    public CatalogueBenchmark(CatalogueBenchConfig config, PrintWriter log) {
        this.config = config;
        this.log = log;
        this.rows = new ObjectMetadataRows(config.seed());
    }

    /** One store's figures. */
    record Side(long rows, long encodedBytes, long tableBytes, long directoryBytes, double putsPerSecond,
            double getsPerSecond, long gets, int schemas, int dictionaryValues) {
        double encodedBytesPerRow() {
            return (double) encodedBytes / rows;
        }

        double tableBytesPerRow() {
            return (double) tableBytes / rows;
        }
    }

    /** Both stores' figures, the table and the JSON line. */
    public record Result(Side catalogued, Side selfDescribing, String table, String jsonLine) {
    }

    public Result run(Path directory, boolean keepData) throws IOException {
        Files.createDirectories(directory);
        try (Stream<Path> entries = Files.list(directory)) {
            if (entries.findAny().isPresent()) {
                throw new IOException(directory + " is not empty; give the benchmark a fresh --dir");
            }
        }
        Path catDir = directory.resolve("catalogued");
        Path selfDir = directory.resolve("self-describing");
        try (Engine cat = Engine.open(options(catDir, true)); Engine self = Engine.open(options(selfDir, false))) {
            Table catTable = cat.table(TABLE);
            Table selfTable = self.table(TABLE);
            long objects = config.objects();
            LongAdder selfEncoded = new LongAdder();
            long catPutNanos = 0;
            long selfPutNanos = 0;
            log.printf("put: %d rows into each store, %d slices, %d threads ...%n", objects, PUT_SLICES, config.threads());
            log.flush();
            for (int slice = 0; slice < PUT_SLICES; slice++) {
                long from = objects * slice / PUT_SLICES;
                long to = objects * (slice + 1) / PUT_SLICES;
                byte[][] keys = new byte[(int) (to - from)][];
                Row[] sliceRows = new Row[keys.length];
                for (int i = 0; i < keys.length; i++) {
                    keys[i] = rows.key(from + i);
                    sliceRows[i] = rows.row(from + i);
                }
                // The first slice warms the JIT and is not timed. Alternate which store goes first, so neither always runs on a cooler machine.
                for (int turn = 0; turn < 2; turn++) {
                    boolean catalogued = (slice + turn) % 2 == 0;
                    ParallelPhase.Result r = ParallelPhase.run(catalogued ? "put-catalogued" : "put-self",
                            config.threads(), keys.length, ParallelPhase.NO_LIMIT, (worker, n) -> {
                                int i = (int) n;
                                if (catalogued) {
                                    catTable.putRow(keys[i], sliceRows[i]);
                                } else {
                                    byte[] encoded = selfTable.encodeRow(sliceRows[i]);
                                    selfEncoded.add(encoded.length);
                                    selfTable.put(keys[i], encoded);
                                }
                            });
                    if (slice == 0) {
                        continue;
                    } else if (catalogued) {
                        catPutNanos += r.elapsedNanos();
                    } else {
                        selfPutNanos += r.elapsedNanos();
                    }
                }
            }
            long timedPuts = objects - objects / PUT_SLICES;
            log.printf("verify: every row read back from both stores ...%n");
            log.flush();
            LongAdder catEncoded = new LongAdder();
            ParallelPhase.run("verify", config.threads(), objects, ParallelPhase.NO_LIMIT, (worker, i) -> {
                byte[] key = rows.key(i);
                Row expected = rows.row(i);
                byte[] stored = catTable.get(key);
                if (stored == null || Arrays.equals(stored, selfTable.encodeRow(expected))) {
                    throw new IOException("row " + i + " was not stored catalogued (seed " + config.seed() + ")");
                }
                catEncoded.add(stored.length);
                if (!expected.equals(catTable.getRow(key))
                        || !expected.equals(selfTable.getRow(key))) {
                    throw new IOException("row " + i + " read back wrong (seed " + config.seed() + ")");
                }
            });
            log.printf("flush and compact both stores ...%n");
            log.flush();
            for (Engine e : new Engine[] {cat, self}) {
                e.flush();
                e.compactAll();
            }
            long catTableBytes = bytes(catDir, ".sst");
            long selfTableBytes = bytes(selfDir, ".sst");
            long[] getNanos = new long[2];
            long[] getCounts = new long[2];
            int slices = Math.max(1, (int) config.getDuration().toSeconds());
            Duration slice = config.getDuration().dividedBy(slices);
            log.printf("get: %d slices of %s per store, %d threads ...%n", slices, slice, config.threads());
            log.flush();
            for (int s = 0; s < slices; s++) {
                for (int turn = 0; turn < 2; turn++) {
                    boolean catalogued = (s + turn) % 2 == 0;
                    SplittableRandom[] randoms = new SplittableRandom[config.threads()];
                    for (int w = 0; w < randoms.length; w++) {
                        randoms[w] = new SplittableRandom(Mix.mix(config.seed(), w, s, READ_SALT));
                    }
                    ParallelPhase.Result r = ParallelPhase.run(catalogued ? "get-catalogued" : "get-self",
                            config.threads(), Long.MAX_VALUE, slice, (worker, n) -> {
                                long i = randoms[worker].nextLong(objects);
                                byte[] key = rows.key(i);
                                Row row = catalogued ? catTable.getRow(key)
                                        : selfTable.getRow(key);
                                if (row == null || !Arrays.equals(row.get("etag").bytes(), rows.etag(i))) {
                                    throw new IOException("row " + i + " read back wrong (seed " + config.seed() + ")");
                                }
                            });
                    getNanos[catalogued ? 0 : 1] += r.elapsedNanos();
                    getCounts[catalogued ? 0 : 1] += r.operations();
                }
            }
            Side catSide = new Side(objects, catEncoded.sum(), catTableBytes, StoreRun.directoryBytes(catDir),
                    timedPuts * 1e9 / catPutNanos, getCounts[0] * 1e9 / getNanos[0], getCounts[0], cat.stats().schemas(),
                    cat.stats().dictionaryValues());
            Side selfSide = new Side(objects, selfEncoded.sum(), selfTableBytes, StoreRun.directoryBytes(selfDir),
                    timedPuts * 1e9 / selfPutNanos, getCounts[1] * 1e9 / getNanos[1], getCounts[1], self.stats().schemas(),
                    self.stats().dictionaryValues());
            CatalogueReport report = new CatalogueReport(config, catSide, selfSide);
            return new Result(catSide, selfSide, report.table(), report.jsonLine());
        } finally {
            if (!keepData) {
                EngineBenchmark.deleteRecursively(catDir);
                EngineBenchmark.deleteRecursively(selfDir);
            }
        }
    }

    private EngineOptions options(Path dir, boolean catalogueRows) {
        return EngineOptions.builder(dir).syncPolicy(SyncPolicy.PERIODIC).catalogueRows(catalogueRows).build();
    }

    private static long bytes(Path directory, String suffix) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(p -> p.getFileName().toString().endsWith(suffix)).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
