package dev.cairn.service.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * kill -9 during a mixed load ({@link MixedLoad}) on the embedded store, several rounds over one
 * data directory. After each restart every key holds what its last acknowledged request left,
 * or what a request the kill cut off would have left: an acknowledged delete stays deleted, a
 * completed upload reads back whole. Then, with the service stopped, the store's audit recounts
 * every reference from the rows that hold them: no content freed while referenced, none leaked
 * after the sweep.
 */
@Tag("integration")
class MixedLoadKillNineTest {
    private static final int ROUNDS = 3;
    /** Requests acknowledged in a round before the kill may come. */
    private static final int ACKS_BEFORE_KILL = 40;

    @TempDir
    Path dir;

    @Test
    void acknowledgedDeletesCopiesAndUploadsSurviveKillNineAndReferenceCountsStayExact() throws Exception {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("MixedLoadKillNineTest seed=" + seed);
        Random random = new Random(seed);
        Path data = dir.resolve("data");
        Path log = dir.resolve("service.log");
        Map<String, String> props = Map.of("cairn.limits.min-part-size", "64KB", "cairn.engine.memtable-size", "1MB",
                "cairn.engine.sweep-interval", "0", "cairn.cache.object-cache-size", "0");
        MixedLoad load = new MixedLoad(false);
        for (int round = 0; round < ROUNDS; round++) {
            String where = "seed=" + seed + " round=" + round + ": ";
            try (ServiceProcess service = ServiceProcess.start(data, log, props); S3Client s3 = service.client()) {
                if (round == 0) {
                    for (String b : MixedLoad.BUCKETS) {
                        s3.createBucket(r -> r.bucket(b));
                    }
                }
                try (MixedLoad.Round r = load.new Round(s3, random)) {
                    r.awaitAcknowledged(load.acknowledged() + ACKS_BEFORE_KILL, 120);
                    Thread.sleep(random.nextInt(1000));
                    int acked = r.kill(service::kill9);
                    System.out.println(where + acked + " requests acknowledged before the kill");
                }
            }
            try (ServiceProcess service = ServiceProcess.start(data, log, props); S3Client s3 = service.client()) {
                load.verify(s3, where);
            }
            EmbeddedObjectStore.AuditReport audit = audit(data);
            System.out.println(where + audit);
            assertEquals(List.of(), audit.problems(), where + "the store's audit");
        }
        assertTrue(load.acknowledged() >= ROUNDS * ACKS_BEFORE_KILL / 2, "the load acknowledged only "
                + load.acknowledged() + " requests");
    }

    private static EmbeddedObjectStore.AuditReport audit(Path data) throws Exception {
        try (Engine engine = Engine.open(EngineOptions.builder(data.resolve("engine")).createIfMissing(false).build());
             EmbeddedObjectStore store = new EmbeddedObjectStore(engine)) {
            return store.audit();
        }
    }
}
