package dev.cairn.service.crash;

import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.store.Hex;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
 * The kill -9 tests' load: PUT, DELETE, DeleteObjects, CopyObject and multipart completions by
 * a few workers, each on keys of its own, so that the order of a worker's acknowledgements is
 * the order of its keys' states. It remembers, per key, the state the last acknowledged request
 * left and the states a request whose outcome is unknown may have left; {@link #verify} reads
 * every key back against them. Keys spread over two buckets; contents are shared by every
 * worker, so references to one content pile up across keys and buckets.
 */
final class MixedLoad {
    static final String[] BUCKETS = {"crash-a", "crash-b"};
    private static final int WORKERS = 4;
    private static final int KEYS_PER_WORKER = 6;
    private static final int PART_BYTES = 64 << 10;
    private static final List<byte[]> CONTENTS = contents();

    /** What a key may hold: the state its last acknowledged request left, or one an unfinished request would leave. */
    private static final class Expect {
        String acked;
        final Set<String> pending = new HashSet<>();

        boolean allows(String actual) {
            return Objects.equals(acked, actual) || pending.contains(actual);
        }
    }

    private final Map<String, Expect> expected = new HashMap<>();
    private final boolean unavailableAllowed;
    private final AtomicBoolean killed = new AtomicBoolean();
    private final AtomicInteger acknowledged = new AtomicInteger();
    private final AtomicInteger unavailable = new AtomicInteger();

    /**
     * @param unavailableAllowed whether a {@code 503} before the kill is a request of unknown
     *     outcome that the load goes on after (a store node down), rather than a failure
     */
    MixedLoad(boolean unavailableAllowed) {
        this.unavailableAllowed = unavailableAllowed;
    }

    /** One round's workers, until {@link Round#kill} or five minutes (a bound for a kill that never comes). */
    final class Round implements AutoCloseable {
        private final ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
        private final List<Future<Integer>> workers = new ArrayList<>();

        Round(S3Client s3, Random random) {
            killed.set(false);
            for (int w = 0; w < WORKERS; w++) {
                int worker = w;
                long workerSeed = random.nextLong();
                workers.add(pool.submit(() -> load(s3, worker, new Random(workerSeed))));
            }
        }

        /** Waits until this many requests were acknowledged in all, or the bound passes. */
        void awaitAcknowledged(int count, long seconds) throws InterruptedException {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (acknowledged.get() < count && System.nanoTime() < until) {
                Thread.sleep(20);
            }
        }

        /** Marks the kill (call just before it), then waits for the workers; returns the requests they had acknowledged. */
        int kill(ThrowingRunnable kill) throws Exception {
            killed.set(true);
            kill.run();
            pool.shutdown();
            int acked = 0;
            for (Future<Integer> f : workers) {
                acked += f.get(2, TimeUnit.MINUTES);
            }
            return acked;
        }

        @Override
        public void close() {
            pool.shutdownNow();
            try {
                pool.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    int acknowledged() {
        return acknowledged.get();
    }

    /** 503 answers taken as requests of unknown outcome. */
    int unavailable() {
        return unavailable.get();
    }

    /** Reads every key: each holds its acknowledged state or one an unfinished request left; that becomes its state. */
    void verify(S3Client s3, String where) {
        for (Map.Entry<String, Expect> e : expected.entrySet()) {
            String actual = read(s3, e.getKey());
            Expect x = e.getValue();
            if (!x.allows(actual)) {
                fail(where + e.getKey() + " holds " + describe(actual) + ", acknowledged " + describe(x.acked)
                        + ", unfinished: " + x.pending);
            }
            x.acked = actual;
            x.pending.clear();
        }
    }

    private int load(S3Client s3, int worker, Random random) {
        int acked = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!killed.get() && System.nanoTime() < deadline) {
            String key = key(worker, random.nextInt(KEYS_PER_WORKER));
            try {
                if (!step(s3, worker, random, key)) {
                    continue;
                }
                acked++;
                acknowledged.incrementAndGet();
            } catch (S3Exception e) {
                if (killed.get()) {
                    return acked;
                }
                if (unavailableAllowed && e.statusCode() == 503) {
                    unavailable.incrementAndGet();
                    continue;
                }
                throw new AssertionError("a request failed before the kill", e);
            } catch (SdkClientException cutOff) {
                if (!killed.get()) {
                    throw new AssertionError("a request failed before the kill", cutOff);
                }
                return acked;
            }
        }
        return acked;
    }

    /** One request (or upload); false when the draw was skipped. */
    private boolean step(S3Client s3, int worker, Random random, String key) {
        switch (random.nextInt(6)) {
            case 0, 1 -> {
                byte[] content = CONTENTS.get(random.nextInt(CONTENTS.size()));
                Expect x = expect(key);
                x.pending.add(sha(content));
                s3.putObject(r -> r.bucket(bucket(key)).key(object(key)), RequestBody.fromBytes(content));
                settle(x, sha(content));
            }
            case 2 -> {
                Expect x = expect(key);
                x.pending.add(null);
                s3.deleteObject(r -> r.bucket(bucket(key)).key(object(key)));
                settle(x, null);
            }
            case 3 -> {
                String other = key(worker, random.nextInt(KEYS_PER_WORKER));
                if (!bucket(other).equals(bucket(key)) || other.equals(key)) {
                    return false;
                }
                Expect a = expect(key);
                Expect b = expect(other);
                a.pending.add(null);
                b.pending.add(null);
                DeleteObjectsResponse response = s3.deleteObjects(r -> r.bucket(bucket(key)).delete(Delete.builder()
                        .objects(ObjectIdentifier.builder().key(object(key)).build(),
                                ObjectIdentifier.builder().key(object(other)).build()).build()));
                if (!response.errors().isEmpty()) {
                    if (unavailableAllowed && response.errors().stream().allMatch(e -> "SlowDown".equals(e.code()))) {
                        unavailable.incrementAndGet();
                        return false;
                    }
                    throw new AssertionError("DeleteObjects errors: " + response.errors());
                }
                settle(a, null);
                settle(b, null);
            }
            case 4 -> {
                String source = key(worker, random.nextInt(KEYS_PER_WORKER));
                Expect s = expect(source);
                if (s.acked == null || !s.pending.isEmpty() || source.equals(key)) {
                    return false;
                }
                Expect x = expect(key);
                x.pending.add(s.acked);
                s3.copyObject(r -> r.sourceBucket(bucket(source)).sourceKey(object(source))
                        .destinationBucket(bucket(key)).destinationKey(object(key)));
                settle(x, s.acked);
            }
            default -> {
                byte[] first = CONTENTS.get(random.nextInt(CONTENTS.size()));
                byte[] part1 = Arrays.copyOf(first, Math.max(PART_BYTES, first.length));
                byte[] part2 = CONTENTS.get(random.nextInt(CONTENTS.size()));
                String uploadId = s3.createMultipartUpload(r -> r.bucket(bucket(key)).key(object(key))).uploadId();
                String e1 = s3.uploadPart(r -> r.bucket(bucket(key)).key(object(key)).uploadId(uploadId)
                        .partNumber(1), RequestBody.fromBytes(part1)).eTag();
                String e2 = s3.uploadPart(r -> r.bucket(bucket(key)).key(object(key)).uploadId(uploadId)
                        .partNumber(2), RequestBody.fromBytes(part2)).eTag();
                if (random.nextInt(4) == 0) {
                    return false; // left open: its parts keep their references
                }
                byte[] whole = new byte[part1.length + part2.length];
                System.arraycopy(part1, 0, whole, 0, part1.length);
                System.arraycopy(part2, 0, whole, part1.length, part2.length);
                Expect x = expect(key);
                x.pending.add(sha(whole));
                s3.completeMultipartUpload(r -> r.bucket(bucket(key)).key(object(key)).uploadId(uploadId)
                        .multipartUpload(CompletedMultipartUpload.builder().parts(
                                CompletedPart.builder().partNumber(1).eTag(e1).build(),
                                CompletedPart.builder().partNumber(2).eTag(e2).build()).build()));
                settle(x, sha(whole));
            }
        }
        return true;
    }

    private synchronized Expect expect(String key) {
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
