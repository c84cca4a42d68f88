package dev.cairn.engine;

import dev.cairn.engine.internal.CacheCascades;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The row cache in front of the engine's read path, and rows through the schema catalogue. */
class EngineRowCacheTest {
    @TempDir
    Path dir;

    @Test
    void readsHitTheCacheWritesInvalidateAndScansLeaveNoTrace() throws IOException {
        try (Engine e = Engine.open(EngineOptions.builder(dir).rowCacheBytes(8 << 20).build())) {
            Table t = e.table("t");
            t.put("k".getBytes(), "one".getBytes());
            assertEquals("one", new String(t.get("k".getBytes())));
            long hitsBefore = e.stats().rowCache().memoryHits();
            assertEquals("one", new String(t.get("k".getBytes())));
            assertEquals(hitsBefore + 1, e.stats().rowCache().memoryHits());
            t.put("k".getBytes(), "two".getBytes());
            assertEquals("two", new String(t.get("k".getBytes())));
            t.delete("k".getBytes());
            assertNull(t.get("k".getBytes()));

            t.put("cold".getBytes(), "x".getBytes());
            RowCacheStats before = e.stats().rowCache();
            assertEquals("x", new String(t.get("cold".getBytes(), ReadOptions.SCAN)));
            assertEquals("x", new String(t.get("cold".getBytes(), ReadOptions.SCAN)));
            RowCacheStats after = e.stats().rowCache();
            assertEquals(before.memoryEntries(), after.memoryEntries(), "a scan filled the cache");
            assertEquals(before.memoryHits(), after.memoryHits());
        }
    }

    @Test
    void rowsEvictedFromMemoryAreServedFromTheSsdTier() throws Exception {
        EngineOptions options = EngineOptions.builder(dir).rowCacheBytes(256 << 10).ssdCacheBytes(16 << 20).build();
        try (Engine e = Engine.open(options)) {
            Table t = e.table("t");
            for (int i = 0; i < 200; i++) {
                t.put(("k" + i).getBytes(), value(i, 0));
            }
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 200; i++) {
                    assertArrayEquals(value(i, 0), t.get(("k" + i).getBytes()));
                }
                CacheCascades.await(e);
            }
            RowCacheStats s = e.stats().rowCache();
            assertTrue(s.ssdHits() > 0, "no SSD hits: " + s);
            assertTrue(s.memoryEvictions() > 0, "nothing evicted from memory: " + s);
        }
    }

    private static byte[] value(int key, int version) {
        byte[] v = new byte[4000];
        ByteBuffer.wrap(v).putInt(key).putInt(version);
        return v;
    }

    @Test
    void concurrentReadersNeverSeeAValueOlderThanTheLastAcknowledgedWrite() throws Exception {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("EngineRowCacheTest coherence seed=" + seed);
        int keys = 64;
        EngineOptions options = EngineOptions.builder(dir).rowCacheBytes(128 << 10).ssdCacheBytes(8 << 20)
                .valueThreshold(1024).memtableBytes(256 << 10).build();
        AtomicIntegerArray acked = new AtomicIntegerArray(keys);
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (Engine e = Engine.open(options)) {
            Table t = e.table("t");
            for (int k = 0; k < keys; k++) {
                t.put(("k" + k).getBytes(), value(k, 0));
            }
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                int writer = w;
                Random random = new Random(seed + w);
                threads.add(new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            int k = random.nextInt(keys / 2) * 2 + writer;
                            int next = acked.get(k) + 1;
                            t.put(("k" + k).getBytes(), value(k, next));
                            acked.set(k, next);
                        }
                    } catch (IOException ex) {
                        failure.compareAndSet(null, ex.toString());
                    }
                }));
            }
            for (int r = 0; r < 3; r++) {
                Random random = new Random(seed + 100 + r);
                threads.add(new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            int k = random.nextInt(keys);
                            int floor = acked.get(k);
                            byte[] v = t.get(("k" + k).getBytes());
                            int version = ByteBuffer.wrap(v).getInt(4);
                            if (version < floor) {
                                failure.compareAndSet(null, "k" + k + " read version " + version + " after " + floor
                                        + " was acknowledged (seed=" + seed + ")");
                            }
                        }
                    } catch (IOException ex) {
                        failure.compareAndSet(null, ex.toString());
                    }
                }));
            }
            threads.forEach(Thread::start);
            Thread.sleep(Duration.ofSeconds(3).toMillis());
            stop.set(true);
            for (Thread th : threads) {
                th.join();
            }
        }
        assertNull(failure.get(), failure.get());
    }

    @Test
    void rowsGoThroughTheCatalogueAndSurviveReopenAndCheckpoint() throws IOException {
        Path db = dir.resolve("db");
        Row row = Row.builder().inline("content-type", "image/jpeg".getBytes()).inline("etag", "abc".getBytes())
                .inline("size", "20480".getBytes()).build();
        try (Engine e = Engine.open(EngineOptions.builder(db).build())) {
            Table objects = e.table("objects");
            for (int i = 0; i < 100; i++) {
                objects.putRow(("img/" + i + ".jpg").getBytes(), row);
            }
            assertEquals(row, objects.getRow("img/7.jpg".getBytes()));
            assertNull(objects.getRow("missing".getBytes()));
            assertEquals(1, e.stats().schemas());
            e.checkpoint(dir.resolve("copy"));
        }
        try (Engine e = Engine.open(EngineOptions.builder(db).build())) {
            assertEquals(row, e.table("objects").getRow("img/42.jpg".getBytes()));
        }
        try (Engine e = Engine.open(EngineOptions.builder(dir.resolve("copy")).build())) {
            assertEquals(row, e.table("objects").getRow("img/42.jpg".getBytes()));
        }
    }
}
