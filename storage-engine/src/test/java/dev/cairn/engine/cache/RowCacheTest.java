package dev.cairn.engine.cache;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Snapshot;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class RowCacheTest {
    private static final Path DIR = Path.of("/cache");

    private static SsdCache ssd(FileSystem fs) throws IOException {
        return SsdCache.open(SsdCacheOptions.builder(DIR).fileSystem(fs).segmentBytes(16 << 10)
                .capacityBytes(512 << 10).writeBufferBytes(1024).admission(SsdAdmission.ALWAYS)
                .gcExecutor(Runnable::run).build());
    }

    private static byte[] key(int i) {
        return ("row-" + i).getBytes(StandardCharsets.UTF_8);
    }

    /** A value naming its key and version, padded. */
    private static byte[] value(int key, int version, int length) {
        ByteBuffer b = ByteBuffer.allocate(Math.max(8, length));
        b.putInt(key).putInt(version);
        return b.array();
    }

    private static int version(byte[] value) {
        return ByteBuffer.wrap(value).getInt(4);
    }

    private static int keyOf(byte[] value) {
        return ByteBuffer.wrap(value).getInt(0);
    }

    @Test
    void readsFlowFromMemoryToSsdAndPromote() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        try (RowCache cache = RowCache.tiered(RowCacheOptions.builder().memoryBytes(4096).build(), ssd(fs))) {
            for (int i = 0; i < 100; i++) {
                cache.put(key(i), value(i, 1, 100));
            }
            assertTrue(cache.awaitCascades(Duration.ofSeconds(30)));
            RowCacheStats afterLoad = cache.stats();
            assertTrue(afterLoad.memoryEvictions() > 0);
            assertTrue(afterLoad.cascaded() > 0, afterLoad.toString());
            assertTrue(afterLoad.memoryBytes() <= 4096);
            int found = 0;
            for (int i = 0; i < 100; i++) {
                byte[] got = cache.get(key(i));
                if (got != null) {
                    assertArrayEquals(value(i, 1, 100), got);
                    found++;
                }
            }
            RowCacheStats stats = cache.stats();
            System.out.println("tiered: " + stats);
            assertTrue(stats.ssdHits() > 0);
            assertTrue(found > 90, "found " + found + " " + stats);
            assertEquals(100, stats.memoryHits() + stats.memoryMisses());
            assertEquals(stats.memoryMisses(), stats.ssdHits() + stats.ssdMisses());
        }
    }

    @Test
    void invalidateRemovesFromBothTiers() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        SsdCache ssd = ssd(fs);
        try (RowCache cache = RowCache.tiered(RowCacheOptions.builder().memoryBytes(1024).build(), ssd)) {
            for (int i = 0; i < 50; i++) {
                cache.put(key(i), value(i, 1, 100));
            }
            assertTrue(cache.awaitCascades(Duration.ofSeconds(30)));
            for (int i = 0; i < 50; i++) {
                cache.invalidate(key(i));
            }
            for (int i = 0; i < 50; i++) {
                assertNull(cache.get(key(i)));
                assertNull(ssd.get(key(i)));
            }
        }
    }

    @Test
    void anInFlightCascadeCannotResurrectAnInvalidatedRow() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        Queue<Runnable> held = new ArrayDeque<>();
        RowCacheOptions options = RowCacheOptions.builder().memoryBytes(1024).cascadeExecutor(held::add).build();
        try (RowCache cache = RowCache.tiered(options, ssd(fs))) {
            cache.put(key(0), value(0, 1, 100));
            for (int i = 1; i < 20; i++) {
                cache.put(key(i), value(i, 1, 100));
            }
            assertFalse(held.isEmpty(), "evictions are waiting to cascade");
            cache.invalidate(key(0));
            cache.put(key(1), value(1, 2, 100));
            while (!held.isEmpty()) {
                held.poll().run();
            }
            assertNull(cache.get(key(0)));
            byte[] one = cache.get(key(1));
            assertEquals(2, version(one));
        }
    }

    @Test
    void aFillRacingAWriteIsRefused() throws Exception {
        try (RowCache cache = RowCache.memoryOnly(RowCacheOptions.builder().memoryBytes(1 << 20).build())) {
            RowCache.Lookup miss = cache.lookup(key(1), false);
            assertFalse(miss.hit());
            cache.invalidate(key(1));
            assertFalse(cache.fill(key(1), value(1, 1, 10), miss.stamp()), "the engine read may predate the write");
            assertNull(cache.get(key(1)));
            RowCache.Lookup again = cache.lookup(key(1), false);
            assertTrue(cache.fill(key(1), value(1, 2, 10), again.stamp()));
            assertEquals(2, version(cache.get(key(1))));
        }
    }

    @Test
    void snapshotReadsBypassTheCacheAndScanOptionsScan() throws Exception {
        try (RowCache cache = RowCache.memoryOnly(RowCacheOptions.builder().memoryBytes(1 << 20).build())) {
            cache.put(key(1), value(1, 1, 10));
            assertEquals(1, version(cache.lookup(key(1), ReadOptions.DEFAULT).value()));
            assertEquals(1, version(cache.lookup(key(1), ReadOptions.SCAN).value()));
            Snapshot snapshot = new Snapshot() {
                @Override
                public long sequence() {
                    return 42;
                }

                @Override
                public void close() {
                }
            };
            RowCache.Lookup atSnapshot = cache.lookup(key(1), ReadOptions.at(snapshot));
            assertFalse(atSnapshot.hit(), "the cache holds only the latest rows");
            assertFalse(cache.fill(key(2), value(2, 1, 10), atSnapshot.stamp()));
            assertFalse(cache.fill(key(2), value(2, 1, 10), cache.lookup(key(2), ReadOptions.SCAN).stamp()));
            assertNull(cache.get(key(2)));
        }
    }

    @Test
    void scansNeitherFillNorPromoteNorCount() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        SsdCache ssd = ssd(fs);
        try (RowCache cache = RowCache.tiered(RowCacheOptions.builder().memoryBytes(1 << 20).build(), ssd)) {
            ssd.put(key(7), value(7, 1, 10));
            RowCacheStats before = cache.stats();
            RowCache.Lookup scanned = cache.lookup(key(7), true);
            assertEquals(1, version(scanned.value()), "scans may read what is cached");
            RowCache.Lookup missed = cache.lookup(key(8), true);
            assertFalse(missed.hit());
            assertFalse(cache.fill(key(8), value(8, 1, 10), missed.stamp()), "a scan's miss never fills");
            RowCacheStats after = cache.stats();
            assertEquals(before.memoryEntries(), after.memoryEntries(), "no promotion");
            assertEquals(0, after.memoryHits() + after.memoryMisses() + after.ssdHits());
            assertNull(cache.lookup(key(8), true).value());
            assertEquals(0, cache.stats().memoryEntries());
        }
    }

    @Test
    void oneOffReadsDoNotReachTheSsdTierUnderSecondAccessAdmission() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        SsdCache ssd = SsdCache.open(SsdCacheOptions.builder(DIR).fileSystem(fs).segmentBytes(16 << 10)
                .capacityBytes(512 << 10).admission(SsdAdmission.SECOND_ACCESS).gcExecutor(Runnable::run).build());
        try (RowCache cache = RowCache.tiered(RowCacheOptions.builder().memoryBytes(2048).build(), ssd)) {
            for (int i = 0; i < 200; i++) {
                RowCache.Lookup miss = cache.lookup(key(i), false);
                cache.fill(key(i), value(i, 1, 100), miss.stamp());
            }
            assertTrue(cache.awaitCascades(Duration.ofSeconds(30)));
            long afterOneOff = ssd.stats().entries();
            for (int round = 0; round < 2; round++) {
                for (int i = 1000; i < 1100; i++) {
                    RowCache.Lookup lookup = cache.lookup(key(i), false);
                    if (!lookup.hit()) {
                        cache.fill(key(i), value(i, 1, 100), lookup.stamp());
                    }
                }
            }
            for (int i = 2000; i < 2200; i++) {
                RowCache.Lookup miss = cache.lookup(key(i), false);
                cache.fill(key(i), value(i, 1, 100), miss.stamp());
            }
            assertTrue(cache.awaitCascades(Duration.ofSeconds(30)));
            long repeated = 0;
            for (int i = 1000; i < 1100; i++) {
                if (ssd.contains(key(i))) {
                    repeated++;
                }
            }
            System.out.println("second-access admission: " + afterOneOff + " one-off keys and " + repeated
                    + " of 100 twice-read keys on SSD; " + cache.stats());
            assertTrue(afterOneOff < 20, "one-off keys on SSD: " + afterOneOff);
            assertTrue(repeated > 80, "twice-read keys on SSD: " + repeated);
        }
    }

    @RepeatedTest(3)
    void concurrentReadsAndWritesNeverSeeAnOlderValueThanTheLastAcknowledged() throws Exception {
        checkCoherence(30_000, fs -> ssd(fs));
    }

    /** The same, with garbage collection on its own thread, second-access admission and a full SSD tier. */
    @RepeatedTest(2)
    void coherenceHoldsWithBackgroundCollectionAndEviction() throws Exception {
        checkCoherence(15_000, fs -> SsdCache.open(SsdCacheOptions.builder(DIR).fileSystem(fs).segmentBytes(8 << 10)
                .capacityBytes(32 << 10).writeBufferBytes(512).gcGarbageRatio(0.3)
                .admission(SsdAdmission.SECOND_ACCESS).build()));
    }

    private interface SsdFactory {
        SsdCache open(FileSystem fs) throws IOException;
    }

    private void checkCoherence(int operationsPerThread, SsdFactory ssdFactory) throws Exception {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("row cache coherence seed " + seed);
        MemFileSystem fs = new MemFileSystem();
        int keys = 300;
        ConcurrentHashMap<Integer, byte[]> engine = new ConcurrentHashMap<>();
        AtomicLongArray acknowledged = new AtomicLongArray(keys);
        int[] versions = new int[keys];
        Object[] keyLocks = new Object[keys];
        for (int i = 0; i < keys; i++) {
            keyLocks[i] = new Object();
            engine.put(i, value(i, 0, 64));
        }
        RowCacheOptions options = RowCacheOptions.builder().memoryBytes(8 << 10).cascadeQueueEntries(64).build();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (RowCache cache = RowCache.tiered(options, ssdFactory.open(fs))) {
            List<Future<?>> tasks = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                boolean writer = t < 2;
                long threadSeed = seed + t;
                tasks.add(pool.submit(() -> {
                    Random random = new Random(threadSeed);
                    for (int op = 0; op < operationsPerThread; op++) {
                        int k = (int) Math.min(keys - 1, Math.abs(random.nextGaussian()) * keys / 4);
                        if (writer) {
                            synchronized (keyLocks[k]) {
                                int v = ++versions[k];
                                byte[] bytes = value(k, v, 32 + random.nextInt(200));
                                engine.put(k, bytes);
                                if (random.nextBoolean()) {
                                    cache.put(key(k), bytes);
                                } else {
                                    cache.invalidate(key(k));
                                }
                                acknowledged.set(k, v);
                            }
                        } else {
                            long floor = acknowledged.get(k);
                            boolean scan = random.nextInt(10) == 0;
                            RowCache.Lookup lookup = cache.lookup(key(k), scan);
                            byte[] got = lookup.value();
                            boolean hit = got != null;
                            if (!hit) {
                                got = engine.get(k);
                                cache.fill(key(k), got, lookup.stamp());
                            }
                            assertEquals(k, keyOf(got), "seed " + seed);
                            if (version(got) < floor) {
                                fail("seed " + seed + ": key " + k + " read version " + version(got) + " after version "
                                        + floor + " was acknowledged; " + (hit ? "a cache hit" : "from the engine")
                                        + (scan ? " (scan)" : "") + ", stamp " + lookup.stamp() + ", " + cache.describe(key(k)));
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> task : tasks) {
                task.get(300, TimeUnit.SECONDS);
            }
            assertTrue(cache.awaitCascades(Duration.ofSeconds(30)));
            for (int k = 0; k < keys; k++) {
                byte[] got = cache.get(key(k));
                if (got != null) {
                    assertEquals(versions[k], version(got), "seed " + seed + " key " + k);
                }
            }
            RowCacheStats stats = cache.stats();
            System.out.println("coherence run: " + stats);
            assertTrue(stats.cascaded() > 0 && stats.ssdHits() > 0, stats.toString());
        } finally {
            pool.shutdownNow();
        }
    }
}
