package dev.cairn.service.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The mixed load ({@link MixedLoad}) on the Cassandra store, with a crash of each kind per
 * round: one node of datacenter {@code serving} killed with SIGKILL mid-load (its replicas' writes
 * then fail with 503 SlowDown, outcome unknown), then the service killed with SIGKILL. With the
 * node back, every key holds its acknowledged state or one an unfinished request left; the
 * store's audit finds every row's reference and content in place; and a sweep releases all the
 * bookkeeping the crashes left behind, after which the audit finds no leftover either.
 */
@Tag("integration")
class CassandraKillNineTest {
    private static final int ROUNDS = 2;
    private static final int ACKS_BEFORE_KILL = 20;
    private static final String KEYSPACE = "crash_kill";
    /** Node 2 of datacenter serving: with two replicas there, a quorum needs it. */
    private static final int NODE = 2;

    @TempDir
    Path dir;

    @AfterEach
    void nodeBack() {
        LocalCassandraCluster.startNode(NODE);
    }

    @Test
    void acknowledgedWritesSurviveAKilledNodeAndAKilledServiceAndTheSweepLeavesNothingBehind() throws Exception {
        LocalCassandraCluster.ensureRunning();
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("CassandraKillNineTest seed=" + seed);
        Random random = new Random(seed);
        Path log = dir.resolve("service.log");
        Map<String, String> props = Map.of("cairn.store", "cassandra",
                "cairn.cassandra.contact-points", LocalCassandraCluster.CONTACT_POINTS,
                "cairn.cassandra.keyspace", KEYSPACE, "cairn.limits.min-part-size", "64KB");
        MixedLoad load = new MixedLoad(true);
        for (int round = 0; round < ROUNDS; round++) {
            String where = "seed=" + seed + " round=" + round + ": ";
            try (ServiceProcess service = ServiceProcess.start(dir.resolve("data"), log, props);
                 S3Client s3 = service.client()) {
                if (round == 0) {
                    for (String b : MixedLoad.BUCKETS) {
                        s3.createBucket(r -> r.bucket(b));
                    }
                }
                try (MixedLoad.Round r = load.new Round(s3, random)) {
                    r.awaitAcknowledged(load.acknowledged() + ACKS_BEFORE_KILL, 120);
                    LocalCassandraCluster.killNode(NODE);
                    Thread.sleep(1000 + random.nextInt(2000));
                    int acked = r.kill(service::kill9);
                    System.out.println(where + acked + " requests acknowledged before the kills, "
                            + load.unavailable() + " answered 503 so far");
                }
            }
            LocalCassandraCluster.startNode(NODE);
            try (ServiceProcess service = ServiceProcess.start(dir.resolve("data"), log, props);
                 S3Client s3 = service.client()) {
                load.verify(s3, where);
            }
            try (CassandraObjectStore store = CassandraObjectStore.open(settings())) {
                CassandraObjectStore.AuditReport before = store.audit();
                System.out.println(where + "after the crashes: " + summary(before));
                assertEquals(List.of(), before.problems(), where + "the audit after the crashes");
                CassandraObjectStore.SweepReport swept = store.sweep(Duration.ZERO);
                System.out.println(where + "swept: " + swept);
                CassandraObjectStore.AuditReport after = store.audit();
                assertEquals(List.of(), after.problems(), where + "the audit after the sweep");
                assertEquals(List.of(), after.leftovers(), where + "leftovers after the sweep");
            }
        }
        assertTrue(load.acknowledged() >= ROUNDS * ACKS_BEFORE_KILL / 2, "the load acknowledged only "
                + load.acknowledged() + " requests");
    }

    private static CassandraSettings settings() {
        return LocalCassandraCluster.settings(KEYSPACE);
    }

    private static String summary(CassandraObjectStore.AuditReport a) {
        return a.objects() + " objects, " + a.parts() + " parts, " + a.writes() + " writes, " + a.refs() + " refs, "
                + a.generations() + " generations, " + a.chunks() + " chunks, " + a.problems().size() + " problems, "
                + a.leftovers().size() + " leftovers" + (a.leftovers().isEmpty() ? "" : " e.g. " + a.leftovers().get(0));
    }
}
