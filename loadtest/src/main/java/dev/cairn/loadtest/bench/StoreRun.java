package dev.cairn.loadtest.bench;

import dev.cairn.engine.fs.IoCounters;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The engine benchmark's phases on one store: load, one full overwrite, settle, space before and
 * after the store's reclamation pass, a verified warm-up read of every key, then timed random gets.
 *
 * <p>Thread-safety: one run per instance, driven from one thread.
 */
final class StoreRun {

    /** Opens a store in a directory. */
    @FunctionalInterface
    interface Opener {
        BenchStore open(Path directory, BenchConfig config) throws IOException;
    }

    /** Background writes below this rate count as quiet. */
    private static final long QUIET_BYTES_PER_SECOND = 1L << 20;

    private final String name;
    private final BenchConfig config;
    private final ImageWorkload workload;
    private final PrintWriter log;

    StoreRun(String name, BenchConfig config, ImageWorkload workload, PrintWriter log) {
        this.name = name;
        this.config = config;
        this.workload = workload;
        this.log = log;
    }

    StoreFigures run(Opener opener, Path directory) throws IOException {
        try (BenchStore store = opener.open(directory, config)) {
            return measure(store, directory);
        }
    }

    private StoreFigures measure(BenchStore store, Path directory) throws IOException {
        long objects = config.objects();
        IoCounters fsBefore = store.fileSystemCounts();
        ProcIo procBefore = ProcIo.read();
        LongAdder userBytes = new LongAdder();
        LongAdder liveBytes = new LongAdder();

        ParallelPhase.Result load = phase("load", objects, ParallelPhase.NO_LIMIT, (worker, i) -> {
            byte[] key = workload.key(i);
            byte[] value = workload.value(i, 0);
            store.put(key, value);
            userBytes.add(key.length + value.length);
        });
        ParallelPhase.Result overwrite = phase("overwrite", objects, ParallelPhase.NO_LIMIT, (worker, i) -> {
            byte[] key = workload.key(i);
            byte[] value = workload.value(i, 1);
            store.put(key, value);
            userBytes.add(key.length + value.length);
            liveBytes.add(key.length + value.length);
        });
        long settleStart = System.nanoTime();
        store.flush();
        boolean settled = settle(store);
        log.printf("%s: flush and settle %.1f s%n", name, (System.nanoTime() - settleStart) / 1e9);
        IoCounters fsWritten = minus(store.fileSystemCounts(), fsBefore);
        ProcIo procWritten = ProcIo.read().minus(procBefore);
        long diskBytes = directoryBytes(directory);

        long gcStart = System.nanoTime();
        store.compactAndCollectGarbage();
        long diskBytesAfterGc = directoryBytes(directory);
        log.printf("%s: compaction and garbage collection %.1f s%n", name, (System.nanoTime() - gcStart) / 1e9);
        log.flush();

        phase("warm-up (verified read of every key)", objects, ParallelPhase.NO_LIMIT, (worker, i) -> {
            byte[] value = store.get(workload.key(i));
            if (!Arrays.equals(value, workload.value(i, 1))) {
                throw new IOException(name + " returned a wrong value for object " + i + " (seed " + workload.seed() + ")");
            }
        });
        SplittableRandom[] randoms = new SplittableRandom[config.threads()];
        for (int w = 0; w < randoms.length; w++) {
            randoms[w] = new SplittableRandom(workload.seed() * 31 + w);
        }
        IoCounters fsBeforeGets = store.fileSystemCounts();
        ProcIo procBeforeGets = ProcIo.read();
        ParallelPhase.Result gets = phase("gets", config.maxGets(),
                config.getDuration(), (worker, n) -> {
                    long i = randoms[worker].nextLong(objects);
                    byte[] value = store.get(workload.key(i));
                    if (!workload.looksLike(value, i, 1)) {
                        throw new IOException(name + " returned a wrong value for object " + i + " (seed " + workload.seed() + ")");
                    }
                });
        IoCounters fsGets = minus(store.fileSystemCounts(), fsBeforeGets);
        ProcIo procGets = ProcIo.read().minus(procBeforeGets);
        long getCount = Math.max(1, gets.operations());

        return new StoreFigures(
                load.operationsPerSecond(),
                load.percentileMillis(50),
                load.percentileMillis(99),
                overwrite.operationsPerSecond(),
                gets.operationsPerSecond(),
                gets.percentileMillis(50),
                gets.percentileMillis(99),
                gets.operations(),
                userBytes.sum(),
                liveBytes.sum(),
                fsWritten == null ? Double.NaN : fsWritten.bytesWritten(),
                procWritten.available() ? procWritten.deviceBytesWritten() : Double.NaN,
                diskBytes,
                diskBytesAfterGc,
                fsGets == null ? Double.NaN : (double) fsGets.readOps() / getCount,
                procGets.available() ? (double) procGets.readCalls() / getCount : Double.NaN,
                procGets.available() ? (double) procGets.readBytes() / getCount : Double.NaN,
                store.indexAndFilterBytes(),
                objects,
                settled,
                fsWritten == null ? Map.of() : fsWritten.bytesWrittenByLifetime());
    }

    private ParallelPhase.Result phase(String phase, long count, Duration limit, ParallelPhase.Operation operation)
            throws IOException {
        log.printf("%s: %s ...%n", name, phase);
        log.flush();
        ParallelPhase.Result result = ParallelPhase.run(name + "-" + phase.split(" ")[0], config.threads(), count,
                limit, operation);
        log.printf("%s: %s: %d ops in %.1f s, %.0f ops/s, p99 %.2f ms%n", name, phase, result.operations(),
                result.elapsedNanos() / 1e9, result.operationsPerSecond(), result.percentileMillis(99));
        log.flush();
        return result;
    }

    /**
     * Waits until the store's background work (flushes, compactions, garbage collection) stops
     * writing, so that write amplification counts what the workload caused. Watches the kernel's
     * count, or the FileSystem's where the kernel's is unavailable.
     */
    private boolean settle(BenchStore store) {
        long deadline = System.nanoTime() + config.settleTimeout().toNanos();
        long last = writtenSoFar(store);
        while (System.nanoTime() - deadline < 0) {
            if (!sleep(1000)) {
                return false;
            }
            long now = writtenSoFar(store);
            if (now - last < QUIET_BYTES_PER_SECOND) {
                return true;
            }
            last = now;
        }
        log.printf("%s: background writes did not go quiet within %s; figures include only what was written so far%n",
                name, config.settleTimeout());
        return false;
    }

    private static long writtenSoFar(BenchStore store) {
        ProcIo io = ProcIo.read();
        if (io.available()) {
            return io.deviceBytesWritten();
        }
        IoCounters counts = store.fileSystemCounts();
        return counts == null ? 0 : counts.bytesWritten();
    }

    private static IoCounters minus(IoCounters later, IoCounters earlier) {
        return later == null || earlier == null ? null : later.minus(earlier);
    }

    static long directoryBytes(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> {
                try {
                    return Files.size(p);
                } catch (java.nio.file.NoSuchFileException e) {
                    return 0;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static boolean sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
