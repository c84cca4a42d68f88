package dev.cairn.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineTest {
    @TempDir
    Path dir;

    private EngineOptions.Builder small(Path d) {
        return EngineOptions.builder(d).memtableBytes(64 << 10).valueThreshold(256).targetFileBytes(32 << 10)
                .level1Bytes(128 << 10).valueFileBytes(256 << 10).blockCacheBytes(1 << 20);
    }

    static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    static String s(byte[] bytes) {
        return bytes == null ? null : new String(bytes, UTF_8);
    }

    @Test
    void putGetDeleteAcrossTablesAndReopen() throws IOException {
        byte[] big = new byte[10_000];
        new Random(1).nextBytes(big);
        try (Engine e = Engine.open(small(dir).build())) {
            Table objects = e.table("objects");
            Table content = e.table("content");
            objects.put(b("a"), b("1"));
            content.put(b("a"), big);
            objects.put(b("b"), b("2"));
            objects.delete(b("b"));
            assertEquals("1", s(objects.get(b("a"))));
            assertArrayEquals(big, content.get(b("a")));
            assertNull(objects.get(b("b")));
            assertNull(content.get(b("zzz")));
        }
        try (Engine e = Engine.open(small(dir).build())) {
            assertEquals("1", s(e.table("objects").get(b("a"))));
            assertArrayEquals(big, e.table("content").get(b("a")));
            assertNull(e.table("objects").get(b("b")));
        }
    }

    @Test
    void batchesAreAtomicAcrossTables() throws IOException {
        try (Engine e = Engine.open(small(dir).build())) {
            Table x = e.table("x");
            Table y = e.table("y");
            e.write(new WriteBatch().put(x, b("k"), b("vx")).put(y, b("k"), b("vy")).delete(x, b("gone")));
            assertEquals("vx", s(x.get(b("k"))));
            assertEquals("vy", s(y.get(b("k"))));
        }
    }

    @Test
    void scansHonourRangesPrefixesAndFlushedData() throws IOException {
        try (Engine e = Engine.open(small(dir).build())) {
            Table t = e.table("t");
            Table other = e.table("other");
            for (int i = 0; i < 2000; i++) {
                t.put(b(String.format("k%05d", i)), b("v" + i + "x".repeat(i % 400)));
                other.put(b(String.format("k%05d", i)), b("other"));
            }
            for (int i = 0; i < 2000; i += 3) {
                t.delete(b(String.format("k%05d", i)));
            }
            e.flush();
            for (int i = 1; i < 2000; i += 3) {
                t.put(b(String.format("k%05d", i)), b("new" + i));
            }
            List<String> keys = new ArrayList<>();
            try (EntryIterator it = t.scan(new KeyRange(b("k00100"), b("k00200")))) {
                while (it.hasNext()) {
                    Entry en = it.next();
                    keys.add(s(en.key()));
                    int i = Integer.parseInt(s(en.key()).substring(1));
                    assertFalse(i % 3 == 0);
                    String expect = i % 3 == 1 ? "new" + i : "v" + i + "x".repeat(i % 400);
                    assertEquals(expect, s(en.value()));
                }
            }
            assertEquals(67, keys.size(), "k00100..k00199 less the 33 multiples of three");
            assertEquals("k00100", keys.get(0));
            int count = 0;
            try (EntryIterator it = t.scan(KeyRange.prefix(b("k019")))) {
                while (it.hasNext()) {
                    assertTrue(s(it.next().key()).startsWith("k019"));
                    count++;
                }
            }
            assertEquals(67, count);
        }
    }

    @Test
    void snapshotsSeeAPointInTime() throws IOException {
        try (Engine e = Engine.open(small(dir).build())) {
            Table t = e.table("t");
            t.put(b("k"), b("old"));
            try (Snapshot snap = e.snapshot()) {
                t.put(b("k"), b("new"));
                t.put(b("k2"), b("x"));
                e.flush();
                e.compactAll();
                assertEquals("old", s(t.get(b("k"), ReadOptions.at(snap))));
                assertNull(t.get(b("k2"), ReadOptions.at(snap)));
                assertEquals("new", s(t.get(b("k"))));
                try (EntryIterator it = t.scan(KeyRange.all(), ReadOptions.at(snap))) {
                    assertEquals("old", s(it.next().value()));
                    assertFalse(it.hasNext());
                }
            }
        }
    }

    @Test
    void compactionAndValueGcKeepLatestValuesAndReclaimSpace() throws IOException {
        Random random = new Random(7);
        try (Engine e = Engine.open(small(dir).build())) {
            Table t = e.table("t");
            byte[][] latest = new byte[300][];
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < latest.length; i++) {
                    byte[] v = new byte[300 + random.nextInt(3000)];
                    random.nextBytes(v);
                    latest[i] = v;
                    t.put(b("key" + i), v);
                }
            }
            e.compactAll();
            long before = e.stats().valueBytes();
            e.collectValueGarbage(0.3);
            EngineStats after = e.stats();
            assertTrue(after.valueBytes() < before, "value GC reclaimed nothing: " + before + " -> " + after.valueBytes());
            assertTrue(after.valueGcRuns() > 0);
            for (int i = 0; i < latest.length; i++) {
                assertArrayEquals(latest[i], t.get(b("key" + i)), "key" + i);
            }
        }
        try (Engine e = Engine.open(small(dir).build())) {
            assertEquals(300, count(e.table("t")));
        }
    }

    private static int count(Table t) throws IOException {
        int n = 0;
        try (EntryIterator it = t.scan(KeyRange.all())) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    @Test
    void checkpointIsAnOpenableCopy() throws IOException {
        Path copy = dir.resolve("copy");
        try (Engine e = Engine.open(small(dir.resolve("db")).build())) {
            Table t = e.table("t");
            for (int i = 0; i < 500; i++) {
                t.put(b("k" + i), b("v".repeat(i)));
            }
            e.checkpoint(copy);
            t.put(b("after"), b("not in checkpoint"));
            t.put(b("k1"), b("changed"));
        }
        try (Engine c = Engine.open(small(copy).build())) {
            Table t = c.table("t");
            assertEquals(500, count(t));
            assertEquals("v", s(t.get(b("k1"))));
            assertNull(t.get(b("after")));
        }
    }

    @Test
    void refusesForeignDirectoriesAndNewerFormats() throws IOException {
        Path foreign = dir.resolve("foreign");
        Files.createDirectories(foreign);
        Files.writeString(foreign.resolve("photo.jpg"), "not an engine");
        IOException e1 = assertThrows(IOException.class, () -> Engine.open(EngineOptions.builder(foreign).build()));
        assertTrue(e1.getMessage().contains("not a Cairn engine directory"), e1.getMessage());
        assertEquals(List.of("photo.jpg"), Files.list(foreign).map(p -> p.getFileName().toString()).toList());

        Path db = dir.resolve("db");
        Engine.open(EngineOptions.builder(db).build()).close();
        String manifest = Files.readString(db.resolve("CURRENT")).trim();
        byte[] bytes = Files.readAllBytes(db.resolve(manifest));
        bytes[11] = 99; // the low byte of the format version after the 8-byte magic
        Files.write(db.resolve(manifest), bytes);
        IOException e2 = assertThrows(IOException.class, () -> Engine.open(EngineOptions.builder(db).build()));
        assertTrue(e2.getMessage().contains("unsupported") && e2.getMessage().contains("version 99"), e2.getMessage());
        assertArrayEquals(bytes, Files.readAllBytes(db.resolve(manifest)));
    }

    @Test
    void secondOpenOfTheSameDirectoryFails() throws IOException {
        try (Engine e = Engine.open(EngineOptions.builder(dir).build())) {
            assertThrows(IOException.class, () -> Engine.open(EngineOptions.builder(dir).build()));
        }
    }

    @Test
    void invalidOptionsFailAtBuild() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineOptions.builder(dir).memtableBytes(10).build());
        assertTrue(e.getMessage().contains("memtableBytes"));
    }

    @Test
    void concurrentWritersAllLand() throws Exception {
        try (Engine e = Engine.open(small(dir).build())) {
            Table t = e.table("t");
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int writer = w;
                threads.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < 300; i++) {
                            t.put(b("w" + writer + "-" + i), new byte[i * 3]);
                        }
                    } catch (IOException ex) {
                        throw new RuntimeException(ex);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread th : threads) {
                th.join();
            }
            assertEquals(2400, count(t));
            for (int w = 0; w < 8; w++) {
                assertEquals(150 * 3, t.get(b("w" + w + "-150")).length);
            }
        }
    }
}
