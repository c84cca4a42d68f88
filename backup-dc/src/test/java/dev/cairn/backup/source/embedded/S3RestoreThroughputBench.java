package dev.cairn.backup.source.embedded;

import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.restore.ForwardingRestoreDestination;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.restore.S3Destination;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.ContentSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Restore throughput into S3 (a second Cairn) of a store with multipart objects, run only when
 * named: {@code ./mvnw -o -B verify -pl backup-dc -am -Dit.test=S3RestoreThroughputBench
 * -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false}
 * (sizes: {@code -Dbench.multipart}, {@code -Dbench.single}, {@code -Dbench.rounds}). Bucket
 * {@code multi} holds multipart objects (four parts, the last small), bucket {@code single}
 * single-part images. Each round restores, in alternating order, {@code multi} by its recorded
 * parts, {@code multi} with one PUT per object (what a restore into S3 did before part layouts
 * were kept), and {@code single}, through the client the restore command makes, after one round
 * that warms the JIT up and is not counted. Prints a table of
 * medians (with the CPU seconds per GB of the destination service and of this JVM, which runs
 * the restore), the ratio of the two {@code multi} rates (median of the rounds' ratios) and one
 * JSON line.
 */
@Tag("integration")
class S3RestoreThroughputBench {
    private static final int[] PARTS = {300_000, 300_000, 300_000, 50_000};

    @TempDir
    Path dir;

    @Test
    void restoreThroughputIntoS3() throws Exception {
        int multipart = Integer.getInteger("bench.multipart", 100);
        int single = Integer.getInteger("bench.single", 2000);
        int rounds = Integer.getInteger("bench.rounds", 3);
        RestoreFixture fixture = new RestoreFixture(dir);
        Random random = new Random(7);
        String id;
        try (ServiceProcess service = fixture.start("data", RestoreFixture.MIN_PART); S3Client s3 = fixture.client(service)) {
            s3.createBucket(r -> r.bucket("multi"));
            s3.createBucket(r -> r.bucket("single"));
            RestoreFixture.multipartImages(s3, "multi", multipart, random, PARTS);
            for (int i = 0; i < single; i++) {
                byte[] b = new byte[20_000 + random.nextInt(80_000)];
                random.nextBytes(b);
                s3.putObject(r -> r.bucket("single").key("img/" + b.length + "-" + random.nextInt()).contentType("image/jpeg"),
                        RequestBody.fromBytes(b));
            }
            id = fixture.backup(service);
        }
        DirectoryTarget archive = new DirectoryTarget(fixture.archive());
        Map<String, List<double[]>> runs = new LinkedHashMap<>();
        List<String> cases = List.of("multi, recorded parts", "multi, one PUT each", "single, one PUT each");
        cases.forEach(c -> runs.put(c, new ArrayList<>()));
        try (ServiceProcess into = fixture.start("into", RestoreFixture.MIN_PART)) {
            for (int round = -1; round < rounds; round++) {
                List<String> order = new ArrayList<>(cases);
                if (round % 2 != 0) {
                    java.util.Collections.reverse(order);
                }
                for (String c : order) {
                    S3Destination s3 = new S3Destination(fixture.client(into), "s3 " + into.endpoint() + " " + c + " " + round,
                            false);
                    RestoreDestination d = c.contains("recorded") || c.startsWith("single") ? s3 : new OnePut(s3);
                    try {
                        double server = cpuSeconds(into.pid());
                        double job = jobCpuSeconds();
                        Restore.Result r = RestoreFixture.restore(archive, id, d, Set.of(c.substring(0, c.indexOf(','))), true,
                                Restore.DEFAULT_THREADS);
                        if (round >= 0) {
                            runs.get(c).add(new double[] {r.objects(), r.bytes(), r.seconds(), cpuSeconds(into.pid()) - server,
                                    jobCpuSeconds() - job});
                        }
                    } finally {
                        d.close();
                    }
                }
            }
        }
        StringBuilder json = new StringBuilder("{\"bench\":\"s3-restore\",\"rounds\":" + rounds);
        System.out.printf("%-24s %10s %12s %10s %10s %16s %16s%n", "restore into S3", "objects", "bytes", "MB/s", "objects/s",
                "server CPU s/GB", "job CPU s/GB");
        for (String c : cases) {
            List<double[]> rs = runs.get(c);
            double mbs = median(rs.stream().mapToDouble(r -> r[1] / r[2] / 1e6).toArray());
            double ops = median(rs.stream().mapToDouble(r -> r[0] / r[2]).toArray());
            double server = median(rs.stream().mapToDouble(r -> r[3] / (r[1] / 1e9)).toArray());
            double job = median(rs.stream().mapToDouble(r -> r[4] / (r[1] / 1e9)).toArray());
            System.out.printf("%-24s %10.0f %12.0f %10.1f %10.0f %16.1f %16.1f%n", c, rs.get(0)[0], rs.get(0)[1], mbs, ops,
                    server, job);
            String name = c.replaceAll("[^a-z]+", "_");
            json.append(String.format(",\"%s_mb_s\":%.1f,\"%s_objects_s\":%.0f,\"%s_server_cpu_s_per_gb\":%.1f,"
                    + "\"%s_job_cpu_s_per_gb\":%.1f", name, mbs, name, ops, name, server, name, job));
        }
        double[] ratios = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            ratios[round] = runs.get(cases.get(1)).get(round)[2] / runs.get(cases.get(0)).get(round)[2];
        }
        double ratio = median(ratios);
        System.out.printf("multi by recorded parts / one PUT each: %.2fx (median of %d rounds: %s)%n", ratio, rounds,
                java.util.Arrays.toString(Arrays.stream(ratios).map(r -> Math.round(r * 100) / 100.0).toArray()));
        json.append(String.format(",\"multipart_to_put_ratio\":%.2f", ratio));
        System.out.println(json.append("}"));
    }

    /** The process's user and system CPU seconds, from /proc (clock ticks of 10 ms). */
    private static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / 100.0;
    }

    /** This JVM's CPU seconds: the restore's, with its JIT and GC. */
    private static double jobCpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    private static double median(double[] v) {
        java.util.Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** The destination as a restore into S3 wrote before part layouts were kept: one PUT per object. */
    private static final class OnePut extends ForwardingRestoreDestination {
        OnePut(S3Destination s3) {
            super(s3);
        }

        @Override
        public void put(BackupRow row, ContentSource content) throws IOException {
            inner.put(row.withPartSizes(null), content);
        }
    }
}
