package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThumbnailCacheTest {
    @TempDir
    Path dir;

    static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    @Test
    void concurrentRequestsForOneContentShareOneComputation() throws Exception {
        byte[] png = ThumbnailerTest.image("png", 800, 800);
        String sha = sha256(png);
        ThumbnailCache cache = new ThumbnailCache(new Thumbnailer(64_000_000L), dir, 1 << 20);
        AtomicInteger opened = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<byte[]>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                results.add(pool.submit(() -> {
                    go.await();
                    return cache.get(sha, 256, () -> {
                        opened.incrementAndGet();
                        return new ByteArrayInputStream(png);
                    }).jpeg();
                }));
            }
            go.countDown();
            byte[] first = results.get(0).get();
            for (Future<byte[]> f : results) {
                assertArrayEquals(first, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, opened.get());
        assertEquals(1, cache.computed());
    }

    @Test
    void theSweepRemovesThumbnailsOfContentNoObjectHoldsAndKeepsTheRest() throws Exception {
        byte[] kept = ThumbnailerTest.image("png", 300, 200);
        byte[] gone = ThumbnailerTest.image("jpeg", 200, 300);
        String keptSha = sha256(kept);
        Path leftover = dir.resolve(keptSha.substring(0, 2)).resolve("leftover.tmp");
        ThumbnailCache cache = new ThumbnailCache(new Thumbnailer(64_000_000L), dir, 1 << 20);
        for (int size : ThumbnailCache.SIZES) {
            cache.get(sha256(kept), size, () -> new ByteArrayInputStream(kept));
            cache.get(sha256(gone), size, () -> new ByteArrayInputStream(gone));
        }
        java.nio.file.Files.writeString(leftover, "x");
        java.nio.file.Files.setLastModifiedTime(leftover,
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 2 * 3_600_000));
        List<String> asked = new ArrayList<>();
        int removed = cache.sweep(sha -> {
            asked.add(sha);
            return sha.equals(keptSha);
        });
        assertEquals(ThumbnailCache.SIZES.length, removed);
        assertEquals(2, asked.size(), "the store is asked once per content, not per size");
        assertEquals(false, java.nio.file.Files.exists(leftover), "a crash's temporary file an hour old");
        cache.get(sha256(kept), 256, () -> {
            throw new AssertionError("a held content's thumbnail was removed");
        });
        AtomicInteger again = new AtomicInteger();
        cache.get(sha256(gone), 256, () -> {
            again.incrementAndGet();
            return new ByteArrayInputStream(gone);
        });
        assertEquals(1, again.get(), "a removed thumbnail is made again when asked for (from disk and memory alike)");
    }

    @Test
    void aThumbnailIsComputedOncePerContentAndSizeAndKeptOnDisk() throws Exception {
        byte[] jpeg = ThumbnailerTest.image("jpeg", 640, 480);
        String sha = sha256(jpeg);
        ThumbnailCache cache = new ThumbnailCache(new Thumbnailer(64_000_000L), dir, 1 << 20);
        byte[] t256 = cache.get(sha, 256, () -> new ByteArrayInputStream(jpeg)).jpeg();
        cache.get(sha, 256, () -> {
            throw new AssertionError("computed twice");
        });
        cache.get(sha, 128, () -> new ByteArrayInputStream(jpeg));
        assertEquals(2, cache.computed());

        // A new process (a new cache on the same directory) reads it from disk.
        ThumbnailCache restarted = new ThumbnailCache(new Thumbnailer(64_000_000L), dir, 1 << 20);
        byte[] again = restarted.get(sha, 256, () -> {
            throw new AssertionError("computed again after restart");
        }).jpeg();
        assertArrayEquals(t256, again);
        assertEquals(0, restarted.computed());
        assertEquals(1, restarted.diskHits());
    }

    @Test
    void aRefusalIsRememberedSoABombIsLookedAtOnce() throws Exception {
        byte[] bomb = ThumbnailerTest.withDeclaredSize(ThumbnailerTest.image("png", 8, 8), 90_000, 90_000);
        String sha = sha256(bomb);
        ThumbnailCache cache = new ThumbnailCache(new Thumbnailer(64_000_000L), dir, 1 << 20);
        AtomicInteger opened = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            ThumbnailCache.Result r = cache.get(sha, 256, () -> {
                opened.incrementAndGet();
                return new ByteArrayInputStream(bomb);
            });
            assertNull(r.jpeg());
            assertNotNull(r.refusal());
        }
        assertEquals(1, opened.get());
    }

    @Test
    void onlyTheServedSizesAndRealDigestsAreAccepted() {
        ThumbnailCache cache = new ThumbnailCache(new Thumbnailer(64_000_000L), dir, 1 << 20);
        String sha = "a".repeat(64);
        assertThrows(IllegalArgumentException.class, () -> cache.get(sha, 300, () -> null));
        assertThrows(IllegalArgumentException.class, () -> cache.get("../../etc/passwd", 256, () -> null));
    }
}
