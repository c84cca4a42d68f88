package dev.cairn.loadtest.bench;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineStats;
import dev.cairn.engine.Table;
import dev.cairn.engine.fs.CountingFileSystem;
import dev.cairn.engine.fs.IoCounters;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The scale benchmark at one object count, in an empty directory: load the objects with every
 * write durable, let background work settle, stop cleanly and time the reopen, measure random
 * GETs right after it (cold) and again after the page cache is dropped with the engine kept
 * (its block cache warm), then time the open after a writer process is killed with SIGKILL.
 *
 * <p>Thread-safety: one run at a time per instance.
 */
final class ScaleRun {

    /** Background writes below this rate count as quiet. */
    private static final long QUIET_BYTES_PER_SECOND = 1L << 20;
    /** The most objects the crash writer may write before it is killed. */
    static final long CRASH_WRITER_MAX_OBJECTS = 30_000;
    private static final int CRASH_WRITER_THREADS = 8;
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final ScaleConfig config;
    private final ImageWorkload workload;
    private final PrintWriter log;

    ScaleRun(ScaleConfig config, PrintWriter log) {
        this.config = config;
        this.workload = new ImageWorkload(config.seed(), ImageSizeDistribution.images());
        this.log = log;
    }

    ImageWorkload workload() {
        return workload;
    }

    ScaleFigures run(long objects, Path directory) throws IOException {
        FileStore store = Files.getFileStore(directory);
        checkRoom(objects, store);
        String name = String.format("%,d objects", objects);
        CountingFileSystem fileSystem = new CountingFileSystem(new LocalFileSystem());

        Engine engine = ScaleEngine.open(directory, fileSystem, config.blockCacheBytes());
        LongAdder userBytes = new LongAdder();
        ParallelPhase.Result load;
        boolean settled;
        IoCounters written;
        ProcIo processWritten;
        Optional<BlockDeviceStat> deviceWritten;
        Optional<Path> device = BlockDeviceStat.statFileOf(directory);
        try {
            IoCounters filesBefore = fileSystem.snapshot();
            ProcIo processBefore = ProcIo.read();
            Optional<BlockDeviceStat> deviceBefore = BlockDeviceStat.read(device);
            Table table = engine.table(ScaleEngine.TABLE);
            load = phase(name, "load", objects, ParallelPhase.NO_LIMIT, (worker, i) -> {
                if ((i & 255) == 0) {
                    requireFreeSpace(store);
                }
                byte[] key = workload.key(i);
                byte[] value = workload.value(i, 0);
                table.put(key, value);
                userBytes.add(key.length + value.length);
            });
            long settleStart = System.nanoTime();
            engine.flush();
            settled = settle(fileSystem);
            log.printf("%s: flush and settle %.1f s%n", name, (System.nanoTime() - settleStart) / 1e9);
            written = fileSystem.snapshot().minus(filesBefore);
            processWritten = ProcIo.read().minus(processBefore);
            Optional<BlockDeviceStat> deviceAfter = BlockDeviceStat.read(device);
            deviceWritten = deviceBefore.isPresent() && deviceAfter.isPresent()
                    ? Optional.of(deviceAfter.get().minus(deviceBefore.get())) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            closeQuietly(engine, e);
            throw e;
        }
        long diskBytes = StoreRun.directoryBytes(directory);
        long closeStart = System.nanoTime();
        engine.close();
        double closeMillis = (System.nanoTime() - closeStart) / 1e6;

        dropCaches(name, "before the open after a clean stop");
        long openStart = System.nanoTime();
        engine = ScaleEngine.open(directory, fileSystem, config.blockCacheBytes());
        double openMillis = (System.nanoTime() - openStart) / 1e6;
        log.printf("%s: closed in %.0f ms, opened again in %.0f ms%n", name, closeMillis, openMillis);
        ColdGets cold;
        ColdGets warm;
        EngineStats stats;
        try {
            stats = engine.stats();
            cold = gets(name, "cold GETs (just opened)", engine, fileSystem, directory, objects, 1);
            dropCaches(name, "with the engine kept open");
            warm = gets(name, "cold GETs (block cache warm)", engine, fileSystem, directory, objects, 2);
        } catch (IOException | RuntimeException e) {
            closeQuietly(engine, e);
            throw e;
        }
        engine.close();

        Crash crash = config.crashDuration().isZero() ? new Crash(0, Double.NaN, 0)
                : crash(name, directory, objects, store);
        long lsmBytes = stats.bytesPerLevel().stream().mapToLong(Long::longValue).sum();
        return new ScaleFigures(objects, userBytes.sum(), diskBytes, memoryBytes(), load.elapsedNanos() / 1e9,
                load.percentileMillis(50), load.percentileMillis(99), settled, written.bytesWritten(),
                processWritten.available() ? processWritten.deviceBytesWritten() : Double.NaN,
                deviceWritten.map(d -> (double) d.bytesWritten()).orElse(Double.NaN),
                stats.indexAndFilterBytes(), lsmBytes, stats.filesPerLevel(), config.blockCacheBytes(), closeMillis,
                openMillis, cold, warm, crash.acknowledged(), crash.openMillis(), crash.found(),
                config.dropCaches());
    }

    private ColdGets gets(String name, String phase, Engine engine, CountingFileSystem fileSystem, Path directory,
                          long objects, int round) throws IOException {
        Table table = engine.table(ScaleEngine.TABLE);
        SplittableRandom[] randoms = new SplittableRandom[config.threads()];
        for (int w = 0; w < randoms.length; w++) {
            randoms[w] = new SplittableRandom((workload.seed() * 31 + round) * 1_000_003L + w);
        }
        LongAdder valueBytes = new LongAdder();
        Optional<Path> device = BlockDeviceStat.statFileOf(directory);
        EngineStats statsBefore = engine.stats();
        IoCounters filesBefore = fileSystem.snapshot();
        ProcIo processBefore = ProcIo.read();
        Optional<BlockDeviceStat> deviceBefore = BlockDeviceStat.read(device);
        ParallelPhase.Result gets = phase(name, phase, config.maxGets(), config.getDuration(), (worker, n) -> {
            long i = randoms[worker].nextLong(objects);
            byte[] value = table.get(workload.key(i));
            if (!workload.looksLike(value, i, 0)) {
                throw new IOException("object " + i + " read back wrong (seed " + workload.seed() + ")");
            }
            valueBytes.add(value.length);
        });
        EngineStats statsAfter = engine.stats();
        IoCounters files = fileSystem.snapshot().minus(filesBefore);
        ProcIo process = ProcIo.read().minus(processBefore);
        Optional<BlockDeviceStat> deviceAfter = BlockDeviceStat.read(device);
        long hits = statsAfter.blockCacheHits() - statsBefore.blockCacheHits();
        long misses = statsAfter.blockCacheMisses() - statsBefore.blockCacheMisses();
        double deviceReads = Double.NaN;
        double deviceBytes = Double.NaN;
        if (deviceBefore.isPresent() && deviceAfter.isPresent()) {
            BlockDeviceStat delta = deviceAfter.get().minus(deviceBefore.get());
            deviceReads = delta.reads();
            deviceBytes = delta.bytesRead();
        }
        return new ColdGets(gets.operations(), gets.elapsedNanos() / 1e9, gets.percentileMillis(50),
                gets.percentileMillis(99), valueBytes.sum(), files.readOps(), misses,
                process.available() ? process.readBytes() : Double.NaN, deviceReads, deviceBytes,
                hits + misses == 0 ? Double.NaN : (double) hits / (hits + misses));
    }

    /** What the kill -9 step found. */
    private record Crash(long acknowledged, double openMillis, long found) {
    }

    /**
     * Starts {@link CrashWriter} on the directory, lets it write new objects (after the loaded
     * ones) for the crash duration, kills it with SIGKILL, times the open, and checks that every
     * write it acknowledged is there.
     */
    private Crash crash(String name, Path directory, long objects, FileStore store) throws IOException {
        requireFreeSpace(store);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), CrashWriter.class.getName(), directory.toString(),
                Long.toString(workload.seed()), Long.toString(objects), Long.toString(CRASH_WRITER_MAX_OBJECTS),
                Integer.toString(CRASH_WRITER_THREADS), Long.toString(config.blockCacheBytes()));
        builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        log.printf("%s: crash writer: writes for %s, then SIGKILL%n", name, config.crashDuration());
        log.flush();
        Process process = builder.start();
        CrashWriterOutput output = new CrashWriterOutput(process.getInputStream(), objects);
        Thread reader = new Thread(output, "crash-writer-output");
        reader.setDaemon(true);
        reader.start();
        try {
            if (!output.awaitOpen(TimeUnit.MINUTES.toNanos(10))) {
                throw new IOException("the crash writer did not open the engine (exit "
                        + (process.isAlive() ? "none, still running" : process.exitValue()) + ")");
            }
            long deadline = System.nanoTime() + config.crashDuration().toNanos();
            while (System.nanoTime() - deadline < 0 && process.isAlive()) {
                if ((store.getUsableSpace() < config.minFreeBytes())) {
                    break;
                }
                sleep(50);
            }
        } finally {
            process.destroyForcibly();
            waitFor(process);
            joinQuietly(reader);
        }
        long acknowledged = output.acknowledgedCount();
        log.printf("%s: crash writer killed (exit %d) after %,d acknowledged writes%n", name, process.exitValue(),
                acknowledged);
        dropCaches(name, "before the open after kill -9");
        long openStart = System.nanoTime();
        long found = 0;
        try (Engine engine = ScaleEngine.open(directory, new LocalFileSystem(), config.blockCacheBytes())) {
            double openMillis = (System.nanoTime() - openStart) / 1e6;
            log.printf("%s: opened after kill -9 in %.0f ms%n", name, openMillis);
            Table table = engine.table(ScaleEngine.TABLE);
            for (long i : output.acknowledged()) {
                if (workload.looksLike(table.get(workload.key(i)), i, 0)) {
                    found++;
                }
            }
            if (found != acknowledged) {
                throw new IOException((acknowledged - found) + " of " + acknowledged
                        + " writes acknowledged before kill -9 are missing after the open");
            }
            return new Crash(acknowledged, openMillis, found);
        }
    }

    private ParallelPhase.Result phase(String name, String phase, long count, Duration limit,
                                       ParallelPhase.Operation operation) throws IOException {
        log.printf("%s: %s ...%n", name, phase);
        log.flush();
        LongAdder done = new LongAdder();
        Thread progress = progressPrinter(name, phase, done, count);
        ParallelPhase.Result result;
        try {
            result = ParallelPhase.run("scale-" + phase.split(" ")[0], config.threads(), count, limit,
                    (worker, number) -> {
                        operation.run(worker, number);
                        done.increment();
                    });
        } finally {
            progress.interrupt();
            joinQuietly(progress);
        }
        log.printf("%s: %s: %,d ops in %.1f s, %,.0f ops/s, p50 %.2f ms, p99 %.2f ms%n", name, phase,
                result.operations(), result.elapsedNanos() / 1e9, result.operationsPerSecond(),
                result.percentileMillis(50), result.percentileMillis(99));
        log.flush();
        return result;
    }

    private Thread progressPrinter(String name, String phase, LongAdder done, long count) {
        long start = System.nanoTime();
        Thread thread = new Thread(() -> {
            while (sleep(TimeUnit.NANOSECONDS.toMillis(PROGRESS_NANOS))) {
                double seconds = (System.nanoTime() - start) / 1e9;
                synchronized (log) {
                    log.printf("%s: %s: %,d of %,d in %.0f s (%,.0f/s)%n", name, phase, done.sum(), count, seconds,
                            done.sum() / seconds);
                    log.flush();
                }
            }
        }, "scale-progress");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Waits until the engine's background writes stop, so that write amplification counts what the load caused. */
    private boolean settle(CountingFileSystem fileSystem) {
        long deadline = System.nanoTime() + config.settleTimeout().toNanos();
        long last = fileSystem.snapshot().bytesWritten();
        while (System.nanoTime() - deadline < 0) {
            if (!sleep(1000)) {
                return false;
            }
            long now = fileSystem.snapshot().bytesWritten();
            if (now - last < QUIET_BYTES_PER_SECOND) {
                return true;
            }
            last = now;
        }
        log.printf("background writes did not go quiet within %s%n", config.settleTimeout());
        return false;
    }

    /** Refuses a run whose data would leave less than the minimum free space. */
    private void checkRoom(long objects, FileStore store) throws IOException {
        long needed = estimatedBytes(objects) + estimatedBytes(CRASH_WRITER_MAX_OBJECTS);
        long usable = store.getUsableSpace();
        if (usable - needed < config.minFreeBytes()) {
            throw new IOException(String.format("%,d objects need about %.1f GB; %s has %.1f GB free and the run must"
                    + " leave %.1f GB free", objects, needed / 1e9, store, usable / 1e9, config.minFreeBytes() / 1e9));
        }
    }

    /** Key and value bytes of objects {@code 0 .. objects - 1}, plus 1% for the LSM (0.3% measured at 1 million). */
    long estimatedBytes(long objects) {
        long bytes = 0;
        for (long i = 0; i < objects; i++) {
            bytes += ImageWorkload.KEY_BYTES + workload.valueSize(i, 0);
        }
        return bytes + bytes / 100;
    }

    private void requireFreeSpace(FileStore store) throws IOException {
        long usable = store.getUsableSpace();
        if (usable < config.minFreeBytes()) {
            throw new IOException(String.format("free space on %s fell to %.1f GB, below the %.1f GB the run must leave",
                    store, usable / 1e9, config.minFreeBytes() / 1e9));
        }
    }

    private void dropCaches(String name, String when) throws IOException {
        if (config.dropCaches()) {
            PageCache.drop();
            log.printf("%s: page cache dropped %s%n", name, when);
            log.flush();
        }
    }

    /** MemTotal from {@code /proc/meminfo}, in bytes; 0 where it cannot be read. */
    static long memoryBytes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }

    private static void closeQuietly(Engine engine, Exception failure) {
        try {
            engine.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private static void waitFor(Process process) {
        boolean interrupted = false;
        while (true) {
            try {
                process.waitFor();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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
