package dev.cairn.backup.bench;

import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.cli.ExitCode;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.RestoreStateDirs;
import dev.cairn.backup.restore.StoreDestination;
import dev.cairn.backup.run.BackupRun;
import dev.cairn.backup.run.RunSettings;
import dev.cairn.backup.source.embedded.CheckpointReader;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.verify.Verifier;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ContentSource;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.PutRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code backup bench}: full backup of a seeded embedded store into a directory, next to the
 * device's sequential read bandwidth (dd with O_DIRECT, the median of reads right before and right
 * after the full backup, {@link DeviceReadProbe}); an incremental
 * after 1 % of the objects changed; restore and verify throughput. A table, then one JSON line.
 * Built from the bench source set into {@code cairn-backup-bench.jar}, apart from the job;
 * {@code bin/cairn backup bench} runs it.
 */
@Command(name = "backup bench", mixinStandardHelpOptions = true,
        description = "Backup throughput: full, incremental after 1%% changed, restore, verify; next to the device's sequential read bandwidth.")
public final class BenchCommand implements Callable<Integer> {
    /** dd reads of the device right before the full backup, and right after it; the ratio uses their median. */
    static final int DEVICE_READS_BEFORE = 2;
    static final int DEVICE_READS_AFTER = 2;

    @Option(names = "--objects", defaultValue = "100000", description = "objects seeded (default: ${DEFAULT-VALUE})")
    int objects;

    @Option(names = "--dir", description = "work directory on the device measured (default: a new temporary directory)")
    Path dir;

    @Option(names = "--archive", description = "directory of the archive (default: in the work directory, on the device"
            + " measured, so the backup's writes share the device with its reads)")
    Path archiveDir;

    @Option(names = "--keep", description = "keep the work directory")
    boolean keep;

    @Option(names = "--full-only", description = "stop after the full backup and the device reads next to it"
            + " (default: every step)")
    boolean fullOnly;

    /** The file-store case study's shape (docs/references.md): 90 % of objects 1-25 KB, 10 % 50-150 KB. */
    static int size(Random r) {
        return r.nextInt(10) < 9 ? 1024 + r.nextInt(24 * 1024) : 50 * 1024 + r.nextInt(100 * 1024);
    }

    public static void main(String[] args) {
        CommandLine cl = new CommandLine(new BenchCommand());
        cl.setExecutionExceptionHandler((e, commandLine, parsed) -> {
            commandLine.getErr().println("cairn backup bench: error: " + ExitCode.message(e));
            return e instanceof IllegalArgumentException ? ExitCode.USAGE : ExitCode.FAILED;
        });
        System.exit(cl.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintStream out = System.out;
        Path work = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("cairn-backup-bench");
        Map<String, Object> json = new LinkedHashMap<>();
        Path archive = archiveDir != null ? archiveDir.resolve("cairn-bench-archive-" + ProcessHandle.current().pid())
                : work.resolve("archive");
        try {
            Path storeDir = work.resolve("store");
            long t0 = System.nanoTime();
            long seeded = seed(storeDir);
            out.printf(Locale.ROOT, "seeded %,d objects, %,d bytes in %.1f s%n", objects, seeded, (System.nanoTime() - t0) / 1e9);
            DirectoryTarget target = new DirectoryTarget(archive);
            boolean archiveShared = Files.getFileStore(Files.createDirectories(archive)).equals(Files.getFileStore(work));
            RunSettings settings = new RunSettings(4, 4, 5000, Duration.ofSeconds(10), Duration.ofSeconds(120));

            double[] device = new double[DEVICE_READS_BEFORE + DEVICE_READS_AFTER];
            double c0;
            double[] k0;
            BackupRun.Result full;
            double fullCpu;
            double[] k1;
            long cachedBeforeDrop = StorePageCache.cachedBytes();
            boolean dropped = StorePageCache.drop(storeDir);
            long cachedAfterDrop = StorePageCache.cachedBytes();
            long cachedBeforeFull;
            long cachedAfterFull;
            double jit;
            ThreadCpuTimeline threads;
            try (DeviceReadProbe probe = DeviceReadProbe.create(work)) {
                for (int i = 0; i < DEVICE_READS_BEFORE; i++) {
                    device[i] = probe.read();
                }
                cachedBeforeFull = StorePageCache.cachedBytes();
                double jit0 = compilationSeconds();
                c0 = cpuSeconds();
                k0 = userSystemSeconds();
                try (ThreadCpuTimeline timeline = ThreadCpuTimeline.start()) {
                    full = backup(storeDir, target, settings);
                    threads = timeline;
                }
                fullCpu = cpuSeconds() - c0;
                k1 = userSystemSeconds();
                jit = compilationSeconds() - jit0;
                cachedAfterFull = StorePageCache.cachedBytes();
                for (int i = DEVICE_READS_BEFORE; i < device.length; i++) {
                    device[i] = probe.read();
                }
            }
            double deviceMBs = DeviceReadProbe.median(device);
            double fullMBs = full.trailer().logicalBytes() / full.seconds() / 1e6;
            out.println();
            out.printf("%-34s %14s %10s %10s %10s%n", "step", "bytes", "seconds", "MB/s", "CPU s");
            row(out, "device sequential read (dd direct)", 0, 0, deviceMBs, 0);
            out.printf(Locale.ROOT, "  (median of %d reads of 1 GiB: %s MB/s; %d before the full backup, %d after)%n",
                    device.length, java.util.Arrays.stream(device).mapToObj(d -> String.format(Locale.ROOT, "%.0f", d))
                            .collect(java.util.stream.Collectors.joining(", ")), DEVICE_READS_BEFORE, DEVICE_READS_AFTER);
            row(out, "full backup", full.trailer().logicalBytes(), full.seconds(), fullMBs, fullCpu);
            out.printf("  (archive %s: %s)%n", archive, archiveShared
                    ? "on the device read, which also takes the backup's writes" : "on another file system");
            double gb = full.trailer().logicalBytes() / 1e9;
            out.printf(Locale.ROOT, "  (CPU per GB %.2f s: user %.2f, system %.2f; JIT compiler threads %.2f of the %.1f CPU s)%n",
                    fullCpu / gb, (k1[0] - k0[0]) / gb, (k1[1] - k0[1]) / gb, jit, fullCpu);
            out.printf(Locale.ROOT, "  (store's pages dropped from the page cache before it: %s; Cached %,d -> %,d MB;"
                            + " during the full backup %,d -> %,d MB, %+,d MB)%n",
                    dropped ? "yes" : "no, it read partly from the cache", cachedBeforeDrop >> 20,
                    cachedAfterDrop >> 20, cachedBeforeFull >> 20, cachedAfterFull >> 20,
                    (cachedAfterFull - cachedBeforeFull) >> 20);
            double fastest = java.util.Arrays.stream(device).max().orElseThrow();
            double slowest = java.util.Arrays.stream(device).min().orElseThrow();
            json.put("objects", objects);
            json.put("archive_on_device_read", archiveShared);
            json.put("bytes", full.trailer().logicalBytes());
            json.put("device_read_mb_s", round(deviceMBs));
            json.put("device_read_mb_s_each", java.util.Arrays.stream(device).map(BenchCommand::round).toArray());
            json.put("full_seconds", round(full.seconds()));
            json.put("full_mb_s", round(fullMBs));
            json.put("full_to_device_ratio", round(fullMBs / deviceMBs));
            json.put("full_to_fastest_device_read_ratio", round(fullMBs / fastest));
            json.put("full_cpu_seconds", round(fullCpu));
            json.put("full_cpu_seconds_per_gb", round(fullCpu / (full.trailer().logicalBytes() / 1e9)));
            json.put("full_jit_cpu_seconds", round(jit));
            json.put("full_cores_busy", round(threads.seconds() > 0
                    ? threads.totals().values().stream().mapToDouble(Double::doubleValue).sum() / threads.seconds() : 0));
            json.put("full_thread_cpu_seconds", threads.totals().entrySet().stream()
                    .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> round(e.getValue()),
                            (a, b) -> a, java.util.LinkedHashMap::new)));
            json.put("store_pages_dropped_before_full", dropped);
            json.put("page_cache_growth_during_full_mb", (cachedAfterFull - cachedBeforeFull) >> 20);
            json.put("full_user_seconds", round(k1[0] - k0[0]));
            json.put("full_system_seconds", round(k1[1] - k0[1]));
            if (fullOnly) {
                out.printf(Locale.ROOT, "full backup / device read = %.2f (%.2f-%.2f against the fastest and slowest read)%n",
                        fullMBs / deviceMBs, fullMBs / fastest, fullMBs / slowest);
                threads.print(out, "the full backup's threads, cores busy per slot of its time");
                json.put("load_average", round(java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
                out.println(dev.cairn.backup.run.Json.MAPPER.copy()
                        .disable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValueAsString(json));
                return ExitCode.OK;
            }
            changeOnePercent(storeDir);
            double c1 = cpuSeconds();
            BackupRun.Result incr = backup(storeDir, target, settings);
            double incrCpu = cpuSeconds() - c1;

            Path restoreDir = work.resolve("restored");
            long rt = System.nanoTime();
            double c2 = cpuSeconds();
            Restore.Result restored;
            try (EmbeddedStoreDir dest = EmbeddedStoreDir.open(restoreDir);
                 StoreDestination d = new StoreDestination(dest.store(), "bench restore", null);
                 Progress p = Progress.onStderr("restore", incr.trailer().objects())) {
                restored = new Restore(target, incr.backupId(), d, Set.of(), "", false, Restore.DEFAULT_THREADS, System.err,
                        RestoreStateDirs.besideStore(restoreDir)).run(p);
            }
            double restoreS = (System.nanoTime() - rt) / 1e9;
            double restoreCpu = cpuSeconds() - c2;
            long vt = System.nanoTime();
            double c3 = cpuSeconds();
            Verifier v = new Verifier(target, System.err, 4);
            v.verifyManifests(null);
            v.verifyBlobs(false);
            double verifyS = (System.nanoTime() - vt) / 1e9;
            double verifyCpu = cpuSeconds() - c3;

            row(out, "incremental (1% changed): copied", incr.trailer().copiedBytes(), incr.seconds(),
                    incr.trailer().logicalBytes() / incr.seconds() / 1e6, incrCpu);
            row(out, "restore into embedded store", restored.bytes(), restoreS, restored.bytes() / restoreS / 1e6, restoreCpu);
            row(out, "verify (re-hash every blob)", v.blobBytesChecked.get(), verifyS, v.blobBytesChecked.get() / verifyS / 1e6,
                    verifyCpu);
            long[] files = archiveFiles(target);
            out.printf(Locale.ROOT, "full backup / device read = %.2f (%.2f-%.2f against the fastest and slowest read);"
                            + " archive: %,d files, %,d of them packs; verify problems: %d%n",
                    fullMBs / deviceMBs, fullMBs / fastest, fullMBs / slowest, files[0], files[1], v.problems().size());
            threads.print(out, "the full backup's threads, cores busy per slot of its time");
            json.put("incremental_cpu_seconds", round(incrCpu));
            json.put("restore_cpu_seconds", round(restoreCpu));
            json.put("restore_cpu_seconds_per_gb", round(restoreCpu / (restored.bytes() / 1e9)));
            json.put("verify_cpu_seconds", round(verifyCpu));
            json.put("verify_cpu_seconds_per_gb", round(verifyCpu / (v.blobBytesChecked.get() / 1e9)));
            json.put("archive_files", files[0]);
            json.put("archive_packs", files[1]);
            json.put("load_average", round(java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()));
            json.put("incremental_seconds", round(incr.seconds()));
            json.put("incremental_copied_bytes", incr.trailer().copiedBytes());
            json.put("incremental_copied_blobs", incr.trailer().copiedBlobs());
            json.put("restore_seconds", round(restoreS));
            json.put("restore_mb_s", round(restored.bytes() / restoreS / 1e6));
            json.put("verify_seconds", round(verifyS));
            json.put("verify_mb_s", round(v.blobBytesChecked.get() / verifyS / 1e6));
            json.put("verify_problems", v.problems().size());
            out.println(dev.cairn.backup.run.Json.MAPPER.copy()
                    .disable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValueAsString(json));
            return v.problems().isEmpty() ? ExitCode.OK : ExitCode.FAILED;
        } finally {
            if (!keep) {
                deleteTree(work);
                deleteTree(archive);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /**
     * User and system CPU seconds of this process from /proc/self/stat (zeros elsewhere): system
     * time is the kernel's work for the job, such as creating files.
     */
    private static double[] userSystemSeconds() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            double tick = 100.0; // USER_HZ on Linux
            return new double[] {Long.parseLong(f[11]) / tick, Long.parseLong(f[12]) / tick};
        } catch (IOException | RuntimeException e) {
            return new double[] {0, 0};
        }
    }

    /** Files in the archive, and how many of them are packs. */
    private static long[] archiveFiles(DirectoryTarget target) throws IOException {
        long[] n = new long[2];
        target.list("", e -> {
            n[0]++;
            if (e.name().endsWith(dev.cairn.backup.archive.ArchiveLayout.PACK_SUFFIX)) {
                n[1]++;
            }
        });
        return n;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private static void row(PrintStream out, String step, long bytes, double s, double mbs, double cpu) {
        out.printf(Locale.ROOT, "%-34s %,14d %10.1f %10.1f %10.1f%n", step, bytes, s, mbs, cpu);
    }

    /**
     * CPU time of this process (every thread, user and system): on a shared machine wall time
     * depends on the other load, CPU time per byte much less.
     */
    private static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /**
     * CPU seconds (user and system) of the JIT's compiler threads so far, from /proc/self/task
     * (0 elsewhere): a fixed cost that a short run shows large. The JVM's own compilation time
     * counts their elapsed time, which a loaded machine inflates.
     */
    private static double compilationSeconds() {
        double ticks = 0;
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                        ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    }
                } catch (IOException | RuntimeException gone) {
                    // a compiler thread that ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return ticks / 100.0; // USER_HZ on Linux
    }

    private BackupRun.Result backup(Path storeDir, DirectoryTarget target, RunSettings settings) throws Exception {
        try (CheckpointReader source = CheckpointReader.open(storeDir, true, 0, false, "bench store (read-only, scan reads)");
             Progress p = Progress.onStderr("backup", 0)) {
            return new BackupRun(source, target, settings, System.err, p).execute();
        }
    }

    private long seed(Path storeDir) throws IOException {
        Random r = new Random(2);
        long total = 0;
        try (EmbeddedStoreDir dir = EmbeddedStoreDir.openForBulkLoad(storeDir)) {
            EmbeddedObjectStore store = dir.store();
            for (int b = 0; b < 4; b++) {
                store.createBucket("bench-" + b, BucketAcl.PRIVATE);
            }
            for (int i = 0; i < objects; i++) {
                byte[] bytes = new byte[size(r)];
                r.nextBytes(bytes);
                put(store, "bench-" + (i % 4), "img/" + i + ".jpg", bytes);
                total += bytes.length;
            }
        }
        return total;
    }

    private void changeOnePercent(Path storeDir) throws IOException {
        Random r = new Random(3);
        try (EmbeddedStoreDir dir = EmbeddedStoreDir.openForBulkLoad(storeDir)) {
            EmbeddedObjectStore store = dir.store();
            for (int i = 0; i < objects; i += 100) {
                byte[] bytes = new byte[size(r)];
                r.nextBytes(bytes);
                put(store, "bench-" + (i % 4), "img/" + i + ".jpg", bytes);
            }
        }
    }

    private static void put(EmbeddedObjectStore store, String bucket, String key, byte[] bytes) throws IOException {
        String sha = digest("SHA-256", bytes);
        String md5 = digest("MD5", bytes);
        ContentSource c = new ContentSource() {
            public String sha256() {
                return sha;
            }

            public long size() {
                return bytes.length;
            }

            public String md5() {
                return md5;
            }

            public InputStream open() {
                return new ByteArrayInputStream(bytes);
            }
        };
        store.putObject(PutRequest.of(bucket, key, c, md5)
                .withAttributes(new ObjectAttributes("image/jpeg", null, null, null, null, null, Map.of())));
    }

    private static String digest(String alg, byte[] b) {
        try {
            return Hex.encode(MessageDigest.getInstance(alg).digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
