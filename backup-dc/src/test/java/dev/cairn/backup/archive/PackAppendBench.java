package dev.cairn.backup.archive;

import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.Hex;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Two threads hash and pack small blobs side by side, as the content phase's hashing threads do,
 * into the one shared pack ({@link PackWriter#append}) or each into its own
 * ({@link PackWriter#appendToOwnPack}), alternately in the same process, so that both see the
 * same machine. Prints wall and CPU seconds per GB for each. Run from the module's classes:
 * {@code java -cp "backup-dc/target/test-classes:backup-dc/target/classes:backup-dc/target/lib/*"
 * dev.cairn.backup.archive.PackAppendBench [MB per thread] [rounds] [directory]}.
 */
public final class PackAppendBench {
    private PackAppendBench() {
    }

    public static void main(String[] args) throws Exception {
        int mbPerThread = args.length > 0 ? Integer.parseInt(args[0]) : 512;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path base = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("pack-append-bench");
        byte[] random = new byte[64 << 20];
        new Random(1).nextBytes(random);
        for (int round = 1; round <= rounds; round++) {
            for (boolean own : round % 2 == 1 ? new boolean[] {false, true} : new boolean[] {true, false}) {
                Path dir = Files.createDirectories(base.resolve("r" + round + (own ? "-own" : "-shared")));
                double[] r = run(new DirectoryTarget(dir), random, (long) mbPerThread << 20, own);
                System.out.printf(Locale.ROOT, "round %d %-6s %.2f s wall, %.2f CPU s, %.0f MB/s, %.2f CPU s/GB, load %.1f%n",
                        round, own ? "own" : "shared", r[0], r[1], 2.0 * mbPerThread * 1.048576 / r[0], r[1] / (2.0 * mbPerThread / 1024),
                        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
                try (var walk = Files.walk(dir)) {
                    walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        }
    }

    private static double[] run(DirectoryTarget target, byte[] random, long bytesPerThread, boolean own) throws Exception {
        ExecutorService sealer = Executors.newSingleThreadExecutor();
        double cpu0 = cpuSeconds();
        long t0 = System.nanoTime();
        try (PackWriter packs = new PackWriter(target, new BlobLocations(), PackWriter.PACK_BYTES)) {
            packs.sealInBackground(sealer);
            Thread[] threads = new Thread[2];
            for (int t = 0; t < threads.length; t++) {
                int seed = t;
                threads[t] = new Thread(() -> {
                    try {
                        MessageDigest sha = MessageDigest.getInstance("SHA-256");
                        Random r = new Random(seed);
                        byte[] blob = new byte[25 * 1024];
                        long counter = (long) seed << 40;
                        for (long done = 0; done < bytesPerThread; ) {
                            int length = 1024 + r.nextInt(24 * 1024);
                            System.arraycopy(random, r.nextInt(random.length - length), blob, 0, length);
                            ByteBuffer.wrap(blob).putLong(counter++); // every blob distinct
                            sha.update(blob, 0, length);
                            String hash = Hex.encode(sha.digest());
                            if (own) {
                                packs.appendToOwnPack(hash, blob, 0, length);
                            } else {
                                packs.append(hash, blob, 0, length);
                            }
                            done += length;
                        }
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                });
                threads[t].start();
            }
            for (Thread t : threads) {
                t.join();
            }
            packs.sealInBackground(null);
            packs.flush();
        } finally {
            sealer.shutdown();
        }
        return new double[] {(System.nanoTime() - t0) / 1e9, cpuSeconds() - cpu0};
    }

    private static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }
}
