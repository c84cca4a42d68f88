package dev.cairn.service.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.store.Hex;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedMultipartUpload;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * kill -9 during a mixed load of PUT, DELETE, DeleteObjects, CopyObject and multipart
 * completions on the embedded store, several rounds over one data directory. After each restart
 * every key holds what its last acknowledged request left, or what a request the kill cut off
 * would have left: an acknowledged delete stays deleted, a completed upload reads back whole.
 * Then, with the service stopped, the store's audit recounts every reference from the rows that
 * hold them: no content freed while referenced, none leaked after the sweep.
 */
@Tag("integration")
class MixedLoadKillNineTest {
    private static final String[] BUCKETS = {"crash-a", "crash-b"};
    private static final int WORKERS = 4;
    private static final int KEYS_PER_WORKER = 6;
    private static final int ROUNDS = 3;
    private static final int PART_BYTES = 64 << 10;
    /** Requests acknowledged in a round before the kill may come. */
    private static final int ACKS_BEFORE_KILL = 40;
    /** Shared by every worker, so that references to one content pile up across keys and buckets. */
    private static final List<byte[]> CONTENTS = contents();

    @TempDir
    Path dir;

    /** What a key may hold: the state its last acknowledged request left, or one a cut-off request would leave. */
    private static final class Expect {
        String acked;
        final Set<String> pending = new HashSet<>();

        boolean allows(String actual) {
            return java.util.Objects.equals(acked, actual) || pending.contains(actual);
        }
    }

    @Test
    void acknowledgedDeletesCopiesAndUploadsSurviveKillNineAndReferenceCountsStayExact() throws Exception {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("MixedLoadKillNineTest seed=" + seed);
        Random random = new Random(seed);
        Path data = dir.resolve("data");
        Path log = dir.resolve("service.log");
        Map<String, String> props = Map.of("cairn.limits.min-part-size", "64KB", "cairn.engine.memtable-size", "1MB",
                "cairn.engine.sweep-interval", "0", "cairn.cache.object-cache-size", "0");
        Map<String, Expect> expected = new HashMap<>();
        int acknowledged = 0;
        for (int round = 0; round < ROUNDS; round++) {
            String where = "seed=" + seed + " round=" + round + ": ";
            try (ServiceProcess service = ServiceProcess.start(data, log, props); S3Client s3 = service.client()) {
                if (round == 0) {
                    for (String b : BUCKETS) {
                        s3.createBucket(r -> r.bucket(b));
                    }
                }
                AtomicBoolean killed = new AtomicBoolean();
                AtomicInteger progress = new AtomicInteger();
                ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
                List<Future<Integer>> workers = new ArrayList<>();
                for (int w = 0; w < WORKERS; w++) {
                    int worker = w;
                    long workerSeed = random.nextLong();
                    workers.add(pool.submit(() -> load(s3, worker, new Random(workerSeed), expected, killed, progress)));
                }
                // Kill mid-load: once the load is under way (or after a bound), at a random moment.
                long underWay = System.nanoTime() + TimeUnit.SECONDS.toNanos(45);
                while (progress.get() < ACKS_BEFORE_KILL && System.nanoTime() < underWay) {
                    Thread.sleep(20);
                }
                Thread.sleep(random.nextInt(1000));
                killed.set(true);
                service.kill9();
                pool.shutdown();
                int roundAcked = 0;
                for (Future<Integer> f : workers) {
                    roundAcked += f.get(2, TimeUnit.MINUTES);
                }
                System.out.println(where + roundAcked + " requests acknowledged before the kill");
                acknowledged += roundAcked;
                assertTrue(pool.awaitTermination(1, TimeUnit.MINUTES));
            }
            try (ServiceProcess service = ServiceProcess.start(data, log, props); S3Client s3 = service.client()) {
                for (Map.Entry<String, Expect> e : expected.entrySet()) {
                    String actual = read(s3, e.getKey());
                    Expect x = e.getValue();
                    if (!x.allows(actual)) {
                        fail(where + e.getKey() + " holds " + describe(actual) + ", acknowledged " + describe(x.acked)
                                + ", cut off: " + x.pending);
                    }
                    x.acked = actual;
                    x.pending.clear();
                }
            }
            EmbeddedObjectStore.AuditReport audit = audit(data);
            System.out.println(where + audit);
            assertEquals(List.of(), audit.problems(), where + "the store's audit");
        }
        assertTrue(acknowledged >= ROUNDS * ACKS_BEFORE_KILL / 2, "the load acknowledged only " + acknowledged
                + " requests");
    }

    /** One worker: its own keys, so the order of its acknowledgements is the order of its keys' states. */
    private static int load(S3Client s3, int worker, Random random, Map<String, Expect> expected, AtomicBoolean killed,
                            AtomicInteger progress) {
        int acked = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!killed.get() && System.nanoTime() < deadline) {
            String key = key(worker, random.nextInt(KEYS_PER_WORKER));
            try {
                switch (random.nextInt(6)) {
                    case 0, 1 -> {
                        byte[] content = CONTENTS.get(random.nextInt(CONTENTS.size()));
                        Expect x = expect(expected, key);
                        x.pending.add(sha(content));
                        s3.putObject(r -> r.bucket(bucket(key)).key(object(key)), RequestBody.fromBytes(content));
                        settle(x, sha(content));
                    }
                    case 2 -> {
                        Expect x = expect(expected, key);
                        x.pending.add(null);
                        s3.deleteObject(r -> r.bucket(bucket(key)).key(object(key)));
                        settle(x, null);
                    }
                    case 3 -> {
                        String other = key(worker, random.nextInt(KEYS_PER_WORKER));
                        if (!bucket(other).equals(bucket(key)) || other.equals(key)) {
                            continue;
                        }
                        Expect a = expect(expected, key);
                        Expect b = expect(expected, other);
                        a.pending.add(null);
                        b.pending.add(null);
                        DeleteObjectsResponse response = s3.deleteObjects(r -> r.bucket(bucket(key)).delete(Delete.builder()
                                .objects(ObjectIdentifier.builder().key(object(key)).build(),
                                        ObjectIdentifier.builder().key(object(other)).build()).build()));
                        if (!response.errors().isEmpty()) {
                            throw new AssertionError("DeleteObjects errors: " + response.errors());
                        }
                        settle(a, null);
                        settle(b, null);
                    }
                    case 4 -> {
                        String source = key(worker, random.nextInt(KEYS_PER_WORKER));
                        Expect s = expect(expected, source);
                        if (s.acked == null || !s.pending.isEmpty() || source.equals(key)) {
                            continue;
                        }
                        Expect x = expect(expected, key);
                        x.pending.add(s.acked);
                        s3.copyObject(r -> r.sourceBucket(bucket(source)).sourceKey(object(source))
                                .destinationBucket(bucket(key)).destinationKey(object(key)));
                        settle(x, s.acked);
                    }
                    default -> {
                        byte[] first = CONTENTS.get(random.nextInt(CONTENTS.size()));
                        byte[] part1 = java.util.Arrays.copyOf(first, Math.max(PART_BYTES, first.length));
                        byte[] part2 = CONTENTS.get(random.nextInt(CONTENTS.size()));
                        String uploadId = s3.createMultipartUpload(r -> r.bucket(bucket(key)).key(object(key))).uploadId();
                        String e1 = s3.uploadPart(r -> r.bucket(bucket(key)).key(object(key)).uploadId(uploadId)
                                .partNumber(1), RequestBody.fromBytes(part1)).eTag();
                        String e2 = s3.uploadPart(r -> r.bucket(bucket(key)).key(object(key)).uploadId(uploadId)
                                .partNumber(2), RequestBody.fromBytes(part2)).eTag();
                        if (random.nextInt(4) == 0) {
                            continue; // left open: its parts keep their references
                        }
                        byte[] whole = new byte[part1.length + part2.length];
                        System.arraycopy(part1, 0, whole, 0, part1.length);
                        System.arraycopy(part2, 0, whole, part1.length, part2.length);
                        Expect x = expect(expected, key);
                        x.pending.add(sha(whole));
                        s3.completeMultipartUpload(r -> r.bucket(bucket(key)).key(object(key)).uploadId(uploadId)
                                .multipartUpload(CompletedMultipartUpload.builder().parts(
                                        CompletedPart.builder().partNumber(1).eTag(e1).build(),
                                        CompletedPart.builder().partNumber(2).eTag(e2).build()).build()));
                        settle(x, sha(whole));
                    }
                }
                acked++;
                progress.incrementAndGet();
            } catch (SdkClientException | S3Exception cutOff) {
                if (!killed.get()) {
                    throw new AssertionError("a request failed before the kill", cutOff);
                }
                return acked;
            }
        }
        return acked;
    }

    private static synchronized Expect expect(Map<String, Expect> expected, String key) {
        return expected.computeIfAbsent(key, k -> new Expect());
    }

    private static void settle(Expect x, String state) {
        x.acked = state;
        x.pending.clear();
    }

    private static String key(int worker, int index) {
        return BUCKETS[index % BUCKETS.length] + "/w" + worker + "/k" + index;
    }

    private static String bucket(String key) {
        return key.substring(0, key.indexOf('/'));
    }

    private static String object(String key) {
        return key.substring(key.indexOf('/') + 1);
    }

    /** The sha256 of what the key holds, or null when it holds nothing. */
    private static String read(S3Client s3, String key) {
        try {
            return sha(s3.getObjectAsBytes(r -> r.bucket(bucket(key)).key(object(key))).asByteArray());
        } catch (NoSuchKeyException absent) {
            return null;
        }
    }

    private static String describe(String sha) {
        return sha == null ? "nothing" : sha.substring(0, 12);
    }

    private static EmbeddedObjectStore.AuditReport audit(Path data) throws Exception {
        try (Engine engine = Engine.open(EngineOptions.builder(data.resolve("engine")).createIfMissing(false).build());
             EmbeddedObjectStore store = new EmbeddedObjectStore(engine)) {
            return store.audit();
        }
    }

    private static List<byte[]> contents() {
        Random random = new Random(7);
        List<byte[]> out = new ArrayList<>();
        for (int size : new int[] {0, 700, 5_000, 40_000, 70_000, 1_300_000}) {
            byte[] b = new byte[size];
            random.nextBytes(b);
            out.add(b);
        }
        return out;
    }

    static String sha(byte[] b) {
        try {
            return Hex.encode(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
