package dev.cairn.backup.source.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.backup.Main;
import dev.cairn.backup.Seed;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.StoreDestination;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.embedded.CheckpointReader;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.Versioning;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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

/**
 * Restore throughput into a Cassandra keyspace (the test cluster) of a versioned bucket, run only
 * when named: {@code CAIRN_TEST_CASSANDRA_FIRST=<octet> ./mvnw -o -B verify -pl backup-dc -am
 * -Dit.test=CassandraRestoreThroughputBench -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false
 * -Dfailsafe.failIfNoSpecifiedTests=false} (sizes: {@code -Dbench.keys}, {@code -Dbench.versions},
 * {@code -Dbench.rounds}). The archive holds {@code keys} keys of {@code versions} versions each,
 * 2–30 KB. Each round restores it twice, each time into a fresh keyspace, in alternating order: with each
 * key's contents read from the archive as the store writes each version (as before
 * {@code ContentReadAhead}), and read ahead at once; after one round that warms the JIT up and is
 * not counted. Prints a table of medians, the median of the rounds' ratios and one JSON line.
 */
@Tag("integration")
class CassandraRestoreThroughputBench {
    private static final String KEYSPACE = "restorebench";

    @TempDir
    Path dir;

    @Test
    void restoreThroughputIntoCassandra() throws Exception {
        int keys = Integer.getInteger("bench.keys", 100);
        int versions = Integer.getInteger("bench.versions", 8);
        int rounds = Integer.getInteger("bench.rounds", 3);
        Path source = dir.resolve("source");
        Random random = new Random(11);
        try (EmbeddedStoreDir s = EmbeddedStoreDir.open(source)) {
            ObjectStore store = s.store();
            store.createBucket("photos", BucketAcl.PRIVATE);
            store.setBucketVersioning("photos", Versioning.ENABLED);
            for (int v = 0; v < versions; v++) {
                for (int k = 0; k < keys; k++) {
                    byte[] b = new byte[2_000 + random.nextInt(28_000)];
                    random.nextBytes(b);
                    Seed.put(store, "photos", "img/" + k + ".jpg", b, ObjectAttributes.EMPTY);
                }
            }
        }
        Path report = dir.resolve("report.json");
        int exit = Main.commandLine(o -> CheckpointReader.open(source.resolve(DataDirLayout.ENGINE_DIR), true, 0, false, "bench checkpoint"))
                .execute("run", "--source", "embedded", "--target", "dir:" + dir.resolve("archive"), "--report", report.toString());
        if (exit != 0) {
            throw new IllegalStateException("the backup failed: exit " + exit);
        }
        String id = Json.read(Files.readAllBytes(report), RunReport.class, "report").backupId();
        DirectoryTarget archive = new DirectoryTarget(dir.resolve("archive"));

        List<String> cases = List.of("read as written", "read ahead");
        Map<String, List<double[]>> runs = new LinkedHashMap<>();
        cases.forEach(c -> runs.put(c, new ArrayList<>()));
        List<String> keyspaces = new ArrayList<>();
        for (int round = -1; round < rounds; round++) {
            List<String> order = new ArrayList<>(cases);
            if (round % 2 != 0) {
                java.util.Collections.reverse(order);
            }
            for (String c : order) {
                // A fresh keyspace each time: dropping one can outlast a request's timeout on a loaded machine.
                String keyspace = KEYSPACE + "_" + (round + 1) + "_" + cases.indexOf(c);
                keyspaces.add(keyspace);
                CassandraSettings settings = LocalCassandraCluster.settings(keyspace);
                try (CqlSession session = CassandraSessions.connect(settings)) {
                    CassandraObjectStore.createSchema(session, settings);
                    try (CassandraObjectStore store = new CassandraObjectStore(session, false, settings);
                         StoreDestination into = new StoreDestination(store, "cassandra " + keyspace + " " + c, null,
                                 c.equals("read ahead"));
                         Progress progress = new Progress("restore", 0, new PrintStream(new ByteArrayOutputStream()), false)) {
                        Restore.Result r = new Restore(archive, id, into, Set.of(), "", false, Restore.DEFAULT_THREADS,
                                new PrintStream(new ByteArrayOutputStream()), dir.resolve("restores-" + keyspace)).run(progress);
                        store.awaitSettled();
                        if (round >= 0) {
                            runs.get(c).add(new double[] {r.objects(), r.bytes(), r.seconds()});
                        }
                    }
                }
            }
        }
        try (CqlSession session = CassandraSessions.connect(LocalCassandraCluster.settings(KEYSPACE))) {
            for (String keyspace : keyspaces) {
                session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
                        .setTimeout(java.time.Duration.ofMinutes(2)));
            }
        }
        StringBuilder json = new StringBuilder("{\"bench\":\"cassandra-restore\",\"keys\":" + keys + ",\"versions\":"
                + versions + ",\"rounds\":" + rounds);
        System.out.printf("%-20s %10s %12s %10s %12s%n", "restore into Cassandra", "versions", "bytes", "MB/s", "versions/s");
        for (String c : cases) {
            List<double[]> rs = runs.get(c);
            double mbs = median(rs.stream().mapToDouble(r -> r[1] / r[2] / 1e6).toArray());
            double vps = median(rs.stream().mapToDouble(r -> r[0] / r[2]).toArray());
            System.out.printf("%-20s %10.0f %12.0f %10.2f %12.0f%n", c, rs.get(0)[0], rs.get(0)[1], mbs, vps);
            String name = c.replaceAll("[^a-z]+", "_");
            json.append(String.format(",\"%s_mb_s\":%.2f,\"%s_versions_s\":%.0f", name, mbs, name, vps));
        }
        double[] ratios = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            ratios[round] = runs.get(cases.get(0)).get(round)[2] / runs.get(cases.get(1)).get(round)[2];
        }
        double ratio = median(ratios);
        System.out.printf("read ahead / read as written: %.2fx (median of %d rounds: %s)%n", ratio, rounds,
                Arrays.toString(Arrays.stream(ratios).map(x -> Math.round(x * 100) / 100.0).toArray()));
        System.out.println(json.append(String.format(",\"read_ahead_ratio\":%.2f}", ratio)));
    }

    private static double median(double[] v) {
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
