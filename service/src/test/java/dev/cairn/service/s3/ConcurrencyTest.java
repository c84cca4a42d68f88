package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Parallel PUT, GET and DELETE over the SDK on shared and distinct keys, checked against a
 * model: every read is one whole write (its body matches its ETag and was written to that key),
 * keys owned by one thread end exactly as that thread left them, and content is reclaimed once
 * nothing holds it.
 */
class ConcurrencyTest extends ServiceTestSupport {
    private static final int THREADS = 4;
    private static final int OPS = 150;

    @Test
    void parallelWritesAndReadsMatchTheModel() throws Exception {
        long seed = System.nanoTime();
        System.out.println("ConcurrencyTest seed=" + seed);
        String bucket = uniqueBucket("concurrent");
        s3.createBucket(b -> b.bucket(bucket));
        Random shape = new Random(seed);
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            byte[] c = new byte[shape.nextInt(3) == 0 ? 40_000 + shape.nextInt(80_000) : shape.nextInt(3000)];
            shape.nextBytes(c);
            contents.add(c);
        }
        Map<String, byte[]> byMd5 = new HashMap<>();
        for (byte[] c : contents) {
            byMd5.put(md5(c), c);
        }
        List<Map<String, byte[]>> owned = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Map<String, byte[]> mine = new HashMap<>();
                owned.add(mine);
                Random rnd = new Random(seed + t + 1);
                int self = t;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < OPS; i++) {
                        boolean shared = rnd.nextBoolean();
                        String key = shared ? "shared/" + rnd.nextInt(4) : "own/" + self + "/" + rnd.nextInt(4);
                        int op = rnd.nextInt(10);
                        if (op < 4) {
                            byte[] c = contents.get(rnd.nextInt(contents.size()));
                            s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(c));
                            if (!shared) {
                                mine.put(key, c);
                            }
                        } else if (op < 6) {
                            s3.deleteObject(b -> b.bucket(bucket).key(key));
                            if (!shared) {
                                mine.remove(key);
                            }
                        } else {
                            try {
                                var got = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key));
                                String etag = got.response().eTag().replace("\"", "");
                                assertEquals(etag, md5(got.asByteArray()), "a read mixed two writes; seed=" + seed);
                                assertTrue(byMd5.containsKey(etag), "unknown content; seed=" + seed);
                                if (!shared) {
                                    assertEquals(md5(mine.get(key)), etag, "own key; seed=" + seed);
                                }
                            } catch (NoSuchKeyException e) {
                                if (!shared) {
                                    assertTrue(!mine.containsKey(key), "own key vanished; seed=" + seed);
                                }
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(240, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Map<String, byte[]> expectedOwn = new HashMap<>();
        owned.forEach(expectedOwn::putAll);
        var listed = s3.listObjectsV2(b -> b.bucket(bucket)).contents();
        for (var o : listed) {
            byte[] body = s3.getObjectAsBytes(b -> b.bucket(bucket).key(o.key())).asByteArray();
            assertEquals(o.eTag().replace("\"", ""), md5(body), "seed=" + seed);
            if (o.key().startsWith("own/")) {
                assertEquals(md5(expectedOwn.get(o.key())), md5(body), o.key() + " seed=" + seed);
            }
        }
        assertEquals(expectedOwn.keySet(), listed.stream().map(o -> o.key()).filter(k -> k.startsWith("own/"))
                .collect(java.util.stream.Collectors.toSet()), "seed=" + seed);
        for (var o : listed) {
            s3.deleteObject(b -> b.bucket(bucket).key(o.key()));
        }
        s3.deleteBucket(b -> b.bucket(bucket));
    }

    @Test
    void aCopyOfASourceBeingOverwrittenTakesOneWholeVersion() throws Exception {
        String bucket = uniqueBucket("copy-race");
        s3.createBucket(b -> b.bucket(bucket));
        Random rnd = new Random(7);
        Map<String, byte[]> written = new java.util.concurrent.ConcurrentHashMap<>();
        byte[] first = new byte[2000];
        rnd.nextBytes(first);
        s3.putObject(b -> b.bucket(bucket).key("src"), RequestBody.fromBytes(first));
        written.put(md5(first), first);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            // Every version new content, so each overwrite frees the content the last one held.
            Future<?> writer = pool.submit(() -> {
                for (int i = 0; i < OPS; i++) {
                    byte[] c = new byte[1000 + i];
                    new Random(i).nextBytes(c);
                    written.put(md5(c), c);
                    s3.putObject(b -> b.bucket(bucket).key("src"), RequestBody.fromBytes(c));
                }
                return null;
            });
            List<Future<Integer>> copiers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                String target = "copy/" + t;
                copiers.add(pool.submit(() -> {
                    int copies = 0;
                    while (!writer.isDone() && copies < 2 * OPS) {
                        s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("src").destinationBucket(bucket)
                                .destinationKey(target));
                        byte[] got = s3.getObjectAsBytes(b -> b.bucket(bucket).key(target)).asByteArray();
                        assertTrue(written.containsKey(md5(got)), "a copy holds bytes no version had");
                        copies++;
                    }
                    return copies;
                }));
            }
            writer.get(240, TimeUnit.SECONDS);
            for (Future<Integer> c : copiers) {
                assertTrue(c.get(240, TimeUnit.SECONDS) > 0, "every copier copied");
            }
        } finally {
            pool.shutdownNow();
        }
        for (String key : List.of("src", "copy/0", "copy/1")) {
            s3.deleteObject(b -> b.bucket(bucket).key(key));
        }
        s3.deleteBucket(b -> b.bucket(bucket));
    }

    private static String md5(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
