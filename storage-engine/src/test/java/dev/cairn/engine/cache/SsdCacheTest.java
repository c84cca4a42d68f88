package dev.cairn.engine.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.fs.CountingFileSystem;
import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.FaultRule;
import dev.cairn.engine.fs.FileCorruptor;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.FsOp;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SsdCacheTest {
    private static final Path DIR = Path.of("/cache");

    private static SsdCacheOptions.Builder options(FileSystem fs) {
        return SsdCacheOptions.builder(DIR).fileSystem(fs).segmentBytes(16 << 10).capacityBytes(1 << 20)
                .writeBufferBytes(1024).admission(SsdAdmission.ALWAYS).gcExecutor(Runnable::run);
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i, int version, int length) {
        byte[] v = new byte[length];
        new Random(i * 31L + version).nextBytes(v);
        return v;
    }

    @Test
    void bufferedEntriesCostNoReadAndFlushedEntriesExactlyOne() throws IOException {
        CountingFileSystem fs = new CountingFileSystem(new MemFileSystem());
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            assertTrue(cache.put(key(1), value(1, 0, 100)));
            long before = fs.snapshot().readOps();
            assertArrayEquals(value(1, 0, 100), cache.get(key(1)));
            assertEquals(before, fs.snapshot().readOps(), "read from the write buffer");
            for (int i = 2; i < 40; i++) {
                cache.put(key(i), value(i, 0, 100));
            }
            before = fs.snapshot().readOps();
            assertArrayEquals(value(1, 0, 100), cache.get(key(1)));
            assertEquals(before + 1, fs.snapshot().readOps(), "one positional read");
            assertNull(cache.get(key(1000)));
            assertEquals(before + 1, fs.snapshot().readOps(), "a miss reads nothing");
        }
    }

    @Test
    void entriesLargerThanTheBufferAreWrittenThrough() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            cache.put(key(1), value(1, 0, 10));
            cache.put(key(2), value(2, 0, 5000));
            cache.put(key(3), value(3, 0, 10));
            assertArrayEquals(value(1, 0, 10), cache.get(key(1)));
            assertArrayEquals(value(2, 0, 5000), cache.get(key(2)));
            assertArrayEquals(value(3, 0, 10), cache.get(key(3)));
            assertFalse(cache.put(key(4), new byte[20 << 10]), "larger than a segment");
        }
    }

    @Test
    void invalidateRemovesAndCountsGarbage() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            cache.put(key(1), value(1, 0, 100));
            cache.put(key(1), value(1, 1, 100));
            assertArrayEquals(value(1, 1, 100), cache.get(key(1)));
            cache.invalidate(key(1));
            assertNull(cache.get(key(1)));
            SsdCacheStats stats = cache.stats();
            assertEquals(0, stats.entries());
            assertEquals(2L * (CacheEntryFormat.HEADER_BYTES + key(1).length + 100), stats.garbageBytes());
        }
    }

    @Test
    void garbageCollectionKeepsLiveEntriesAndDeletesSegments() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            int n = 600;
            for (int i = 0; i < n; i++) {
                cache.put(key(i), value(i, 0, 200));
            }
            int segmentsBefore = cache.stats().segments();
            for (int i = 0; i < n; i++) {
                if (i % 4 != 0) {
                    cache.invalidate(key(i));
                }
            }
            cache.collectGarbage();
            SsdCacheStats stats = cache.stats();
            System.out.println("after GC: " + stats);
            assertTrue(stats.gcSegments() > 0);
            assertTrue(stats.segments() < segmentsBefore, stats.segments() + " < " + segmentsBefore);
            assertTrue(stats.garbageRatio() < 0.5, "garbage ratio " + stats.garbageRatio());
            for (int i = 0; i < n; i++) {
                byte[] got = cache.get(key(i));
                if (i % 4 == 0) {
                    assertArrayEquals(value(i, 0, 200), got, "key " + i);
                } else {
                    assertNull(got);
                }
            }
            assertEquals(stats.segments(), fs.list(DIR).size());
        }
    }

    @Test
    void fullCacheDropsTheOldestSegment() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).capacityBytes(64 << 10).build())) {
            for (int i = 0; i < 2000; i++) {
                cache.put(key(i), value(i, 0, 100));
            }
            SsdCacheStats stats = cache.stats();
            assertTrue(stats.segments() <= 4, "segments " + stats.segments());
            assertTrue(stats.evictions() > 0);
            assertTrue(stats.bytes() <= 64 << 10);
            assertArrayEquals(value(1999, 0, 100), cache.get(key(1999)));
            assertNull(cache.get(key(0)));
            for (int i = 0; i < 2000; i++) {
                byte[] got = cache.get(key(i));
                if (got != null) {
                    assertArrayEquals(value(i, 0, 100), got);
                }
            }
        }
    }

    @Test
    void secondAccessAdmission() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).admission(SsdAdmission.SECOND_ACCESS).build())) {
            assertFalse(cache.put(key(1), value(1, 0, 10)), "never requested");
            cache.recordAccess(key(1));
            assertFalse(cache.put(key(1), value(1, 0, 10)), "requested once");
            cache.recordAccess(key(1));
            assertTrue(cache.put(key(1), value(1, 0, 10)), "requested twice");
            assertEquals(2, cache.stats().admissionRejected());
            int admitted = 0;
            for (int i = 100; i < 1100; i++) {
                cache.recordAccess(key(i));
                if (cache.put(key(i), value(i, 0, 10))) {
                    admitted++;
                }
            }
            assertTrue(admitted < 100, "one-off keys admitted: " + admitted);
        }
    }

    @Test
    void theDoorkeeperForgetsAfterItsWindow() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).admission(SsdAdmission.SECOND_ACCESS)
                .doorkeeperWindow(100).build())) {
            cache.recordAccess(key(1));
            cache.recordAccess(key(1));
            for (int i = 1000; i < 1200; i++) {
                cache.recordAccess(key(i));
            }
            assertFalse(cache.put(key(1), value(1, 0, 10)));
        }
    }

    @Test
    void bitFlipsAreMissesNeverWrongBytes() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("bitFlips seed " + seed);
        Random random = new Random(seed);
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            int n = 300;
            for (int i = 0; i < n; i++) {
                cache.put(key(i), value(i, 0, 150));
            }
            List<String> names = fs.list(DIR);
            for (int flip = 0; flip < 100; flip++) {
                Path p = DIR.resolve(names.get(random.nextInt(names.size())));
                long size = fs.size(p);
                if (size > SegmentHeader.BYTES) {
                    fs.flipBitInPlace(p, SegmentHeader.BYTES + random.nextInt((int) size - SegmentHeader.BYTES), random.nextInt(8));
                }
            }
            int hits = 0;
            for (int i = 0; i < n; i++) {
                byte[] got = cache.get(key(i));
                if (got != null) {
                    assertArrayEquals(value(i, 0, 150), got, "seed " + seed + " key " + i);
                    hits++;
                }
            }
            SsdCacheStats stats = cache.stats();
            System.out.println("bit flips: " + hits + " hits, " + stats.corruptions() + " corrupt entries dropped");
            assertTrue(stats.corruptions() > 0, "seed " + seed);
            for (int i = 0; i < n; i++) {
                byte[] got = cache.get(key(i));
                if (got != null) {
                    assertArrayEquals(value(i, 0, 150), got, "seed " + seed + " key " + i);
                }
            }
        }
    }

    @Test
    void cleanCloseRebuildsAndKeepsInvalidationsButDropModeEmpties() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            for (int i = 0; i < 300; i++) {
                cache.put(key(i), value(i, 0, 100));
            }
            for (int i = 0; i < 300; i += 3) {
                cache.invalidate(key(i));
            }
            cache.put(key(1), value(1, 9, 100));
        }
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            assertEquals(200, cache.stats().entries());
            for (int i = 0; i < 300; i++) {
                byte[] expected = i % 3 == 0 ? null : value(i, i == 1 ? 9 : 0, 100);
                assertArrayEquals(expected, cache.get(key(i)), "key " + i);
            }
            cache.put(key(0), value(0, 5, 100));
        }
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            assertArrayEquals(value(0, 5, 100), cache.get(key(0)));
        }
        try (SsdCache cache = SsdCache.open(options(fs).recovery(SsdRecovery.DROP).build())) {
            assertEquals(0, cache.stats().entries());
            assertNull(cache.get(key(2)));
        }
    }

    @Test
    void afterACrashTheSegmentsAreDroppedNeverTrusted() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("crash seed " + seed);
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            MemFileSystem fs = new MemFileSystem();
            if (random.nextBoolean()) {
                try (SsdCache cache = SsdCache.open(options(fs).build())) {
                    for (int i = 0; i < 100; i++) {
                        cache.put(key(i), value(i, 0, 100));
                    }
                }
            }
            SsdCache cache = SsdCache.open(options(fs).build());
            int writes = random.nextInt(500);
            for (int i = 0; i < writes; i++) {
                cache.put(key(i), value(i, 1, 100));
                if (random.nextInt(4) == 0) {
                    cache.invalidate(key(random.nextInt(100)));
                }
            }
            MemFileSystem after = fs.crashClone(random, random.nextBoolean());
            try (SsdCache reopened = SsdCache.open(options(after).build())) {
                assertEquals(0, reopened.stats().entries(), "seed " + seed);
                for (int i = 0; i < 500; i++) {
                    assertNull(reopened.get(key(i)), "seed " + seed);
                }
                assertEquals(1, after.list(DIR).size(), "only the new active segment remains");
            }
            cache.close();
        }
    }

    @Test
    void rebuildStopsAtATornOrCorruptTail() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            for (int i = 0; i < 300; i++) {
                cache.put(key(i), value(i, 0, 100));
            }
        }
        Path first = DIR.resolve(CacheSegment.fileName(1));
        long size = fs.size(first);
        FileCorruptor.truncate(fs, first, size - 50);
        Path second = DIR.resolve(CacheSegment.fileName(2));
        FileCorruptor.flipBit(fs, second, SegmentHeader.BYTES + 500, 3);
        try (SsdCache cache = SsdCache.open(options(fs).build())) {
            int hits = 0;
            for (int i = 0; i < 300; i++) {
                byte[] got = cache.get(key(i));
                if (got != null) {
                    assertArrayEquals(value(i, 0, 100), got);
                    hits++;
                }
            }
            assertTrue(hits > 50 && hits < 300, "hits " + hits);
            assertEquals(0, cache.stats().corruptions(), "damaged entries never entered the index");
        }
    }

    @Test
    void garbageCollectionUnderConcurrentLoadMatchesAnOracle() throws Exception {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("gc under load seed " + seed);
        MemFileSystem fs = new MemFileSystem();
        int threads = 3;
        int keysPerThread = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try (SsdCache cache = SsdCache.open(options(fs).capacityBytes(256 << 10).gcGarbageRatio(0.3).build())) {
            AtomicBoolean stop = new AtomicBoolean();
            Future<?> gc = pool.submit(() -> {
                for (int i = 0; i < 100_000 && !stop.get(); i++) {
                    cache.collectGarbage();
                    Thread.yield();
                }
            });
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                workers.add(pool.submit(() -> {
                    Random random = new Random(seed + thread);
                    Map<Integer, byte[]> oracle = new HashMap<>();
                    int[] versions = new int[keysPerThread];
                    for (int op = 0; op < 20_000; op++) {
                        int k = thread * keysPerThread + random.nextInt(keysPerThread);
                        int local = k - thread * keysPerThread;
                        int choice = random.nextInt(10);
                        if (choice < 4) {
                            byte[] v = value(k, ++versions[local], 50 + random.nextInt(300));
                            if (cache.put(key(k), v)) {
                                oracle.put(k, v);
                            } else {
                                oracle.remove(k);
                            }
                        } else if (choice < 5) {
                            cache.invalidate(key(k));
                            oracle.remove(k);
                        } else {
                            byte[] got = cache.get(key(k));
                            if (got != null) {
                                assertArrayEquals(oracle.get(k), got, "seed " + seed + " key " + k);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : workers) {
                w.get(120, TimeUnit.SECONDS);
            }
            stop.set(true);
            gc.get(120, TimeUnit.SECONDS);
            SsdCacheStats stats = cache.stats();
            System.out.println("gc under load: " + stats);
            assertTrue(stats.gcSegments() > 0, "seed " + seed);
            assertTrue(stats.bytes() <= 256 << 10);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFailedWriteDisablesTheCacheWithoutFailingCallers() throws IOException {
        FaultInjectingFileSystem fs = new FaultInjectingFileSystem(new MemFileSystem());
        SsdCache cache = SsdCache.open(options(fs).build());
        cache.put(key(1), value(1, 0, 100));
        FaultRule failedSync = fs.inject(FaultRule.on(FsOp.SYNC).once());
        for (int i = 2; i < 400; i++) {
            cache.put(key(i), value(i, 0, 100));
        }
        assertNull(cache.get(key(1)), "disabled: every read misses");
        assertFalse(cache.put(key(1), value(1, 0, 100)));
        cache.invalidate(key(2));
        cache.close();
        assertEquals(1, failedSync.failedCount());
        try (SsdCache reopened = SsdCache.open(options(fs).build())) {
            assertEquals(0, reopened.stats().entries(), "no live list after a failure: nothing is trusted");
        }
    }

    @Test
    void optionsAreValidated() {
        MemFileSystem fs = new MemFileSystem();
        assertThrows(IllegalArgumentException.class, () -> options(fs).capacityBytes(20 << 10).build());
        assertThrows(IllegalArgumentException.class, () -> options(fs).segmentBytes(100).build());
        assertThrows(IllegalArgumentException.class, () -> options(fs).gcGarbageRatio(0).build());
        assertThrows(IllegalArgumentException.class, () -> options(fs).writeBufferBytes(32 << 10).build());
    }
}
