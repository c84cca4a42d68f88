package dev.cairn.engine;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.fs.CountingFileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Table#scanInStorageOrder}: every live entry once, with its value, values in the tree
 * first and values in value files in the order they were written; across several SSTables and
 * value files, after compaction and value garbage collection, on a read-only checkpoint and at a
 * snapshot; values not wanted left unread when they are not near wanted ones; damage reported.
 */
class StorageOrderScanTest {
    private static final int KEYS = 600;
    private static final int THRESHOLD = 256;

    @TempDir
    Path dir;

    /** Small files so that a few hundred keys span several SSTables and value files; no automatic value GC of live values. */
    private static EngineOptions.Builder small(Path d) {
        return EngineOptions.builder(d).memtableBytes(32 << 10).valueThreshold(THRESHOLD).targetFileBytes(4 << 10)
                .level1Bytes(16 << 10).valueFileBytes(64 << 10).valueGcGarbageRatio(1.0);
    }

    private static byte[] key(int i) {
        return String.format("key-%05d", i).getBytes(UTF_8);
    }

    /** Every third value inline, the others in value files. */
    private static byte[] value(int generation, int i) {
        Random r = new Random(generation * 1_000_003L + i);
        byte[] v = new byte[i % 3 == 0 ? 40 : THRESHOLD + r.nextInt(2_000)];
        r.nextBytes(v);
        return v;
    }

    /** Writes in a shuffled order, overwrites every tenth key, deletes every seventh; returns keys in the order of their live writes. */
    private static List<String> populate(Engine engine, Table t) throws IOException {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            order.add(i);
        }
        Collections.shuffle(order, new Random(7));
        LinkedHashMap<String, Boolean> writes = new LinkedHashMap<>();
        int n = 0;
        for (int i : order) {
            t.put(key(i), value(1, i));
            writes.put(new String(key(i), UTF_8), true);
            if (++n % 150 == 0) {
                engine.flush();
            }
        }
        for (int i = 1; i < KEYS; i += 10) {
            t.put(key(i), value(2, i));
            writes.remove(new String(key(i), UTF_8));
            writes.put(new String(key(i), UTF_8), true);
        }
        for (int i = 0; i < KEYS; i += 7) {
            t.delete(key(i));
            writes.remove(new String(key(i), UTF_8));
        }
        return new ArrayList<>(writes.keySet());
    }

    private static Map<String, byte[]> expected(Table t, ReadOptions options) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (EntryIterator it = t.scan(KeyRange.all(), options)) {
            while (it.hasNext()) {
                Entry e = it.next();
                out.put(new String(e.key(), UTF_8), e.value());
            }
        }
        return out;
    }

    private record Visit(String key, byte[] value) {
    }

    private static List<Visit> visitAll(Table t, KeyRange range, ReadOptions options, StorageOrder.Filter filter)
            throws IOException {
        List<Visit> out = new ArrayList<>();
        t.scanInStorageOrder(range, options, filter, (key, buffer, offset, length) ->
                out.add(new Visit(new String(key, UTF_8), Arrays.copyOfRange(buffer, offset, offset + length))));
        return out;
    }

    private static void assertSameEntries(Map<String, byte[]> expected, List<Visit> visits) {
        Map<String, byte[]> seen = new HashMap<>();
        for (Visit v : visits) {
            assertNull(seen.put(v.key, v.value), "visited once: " + v.key);
        }
        assertEquals(expected.keySet(), new java.util.TreeSet<>(seen.keySet()));
        expected.forEach((k, v) -> assertArrayEquals(v, seen.get(k), k));
    }

    @Test
    void visitsEveryLiveEntryOnceInlineFirstThenInWriteOrder() throws IOException {
        try (Engine engine = Engine.open(small(dir.resolve("e")).build())) {
            Table t = engine.table("t");
            engine.table("other").put(key(1), value(1, 1));
            List<String> liveWrites = populate(engine, t);
            assertTrue(engine.stats().valueFiles() > 3, "several value files: " + engine.stats().valueFiles());
            int sstables = engine.stats().filesPerLevel().stream().mapToInt(Integer::intValue).sum();
            assertTrue(sstables > 3, "several SSTables: " + sstables);

            Map<String, byte[]> expected = expected(t, ReadOptions.SCAN);
            List<Visit> visits = visitAll(t, KeyRange.all(), ReadOptions.SCAN, (k, length) -> true);
            assertSameEntries(expected, visits);

            List<String> inline = new ArrayList<>();
            List<String> separated = new ArrayList<>();
            for (Visit v : visits) {
                if (v.value.length < THRESHOLD) {
                    assertTrue(separated.isEmpty(), "values in the tree come first: " + v.key);
                    inline.add(v.key);
                } else {
                    separated.add(v.key);
                }
            }
            assertEquals(inline.stream().sorted().toList(), inline, "values in the tree in key order");
            List<String> writeOrder = liveWrites.stream().filter(k -> expected.get(k).length >= THRESHOLD).toList();
            assertEquals(writeOrder, separated, "values in value files in the order they lie there");

            List<Visit> part = visitAll(t, new KeyRange(key(100), key(200)), ReadOptions.SCAN, (k, length) -> true);
            Map<String, byte[]> expectedPart = new TreeMap<>(expected);
            expectedPart.keySet().removeIf(k -> k.compareTo("key-00100") < 0 || k.compareTo("key-00200") >= 0);
            assertSameEntries(expectedPart, part);
        }
    }

    /** Values kept as (buffer, offset, length) and only read after the scan: spans read into buffers the visitor supplied stay untouched. */
    @Test
    void spansGoIntoBuffersTheVisitorSuppliesAndStayItsOwn() throws IOException {
        try (Engine engine = Engine.open(small(dir.resolve("e")).build())) {
            Table t = engine.table("t");
            populate(engine, t);
            Map<String, byte[]> expected = expected(t, ReadOptions.SCAN);
            record Held(String key, byte[] buffer, int offset, int length, boolean inSupplied) {
            }
            List<Held> held = new ArrayList<>();
            List<byte[]> supplied = new ArrayList<>();
            boolean[] open = {false};
            t.scanInStorageOrder(KeyRange.all(), ReadOptions.SCAN, (k, length) -> true, new StorageOrder.Visitor() {
                @Override
                public void visit(byte[] key, byte[] buffer, int offset, int length) {
                    boolean mine = open[0] && buffer == supplied.get(supplied.size() - 1);
                    assertEquals(open[0], mine, "inside a span, values lie in the buffer supplied for it");
                    held.add(new Held(new String(key, UTF_8), mine ? buffer : Arrays.copyOfRange(buffer, offset, offset + length),
                            mine ? offset : 0, length, mine));
                }

                @Override
                public byte[] spanBuffer(int length) {
                    assertFalse(open[0], "one span at a time");
                    open[0] = true;
                    supplied.add(new byte[length + 7]);
                    return supplied.get(supplied.size() - 1);
                }

                @Override
                public void spanVisited() {
                    assertTrue(open[0]);
                    open[0] = false;
                }
            });
            assertFalse(open[0]);
            assertTrue(supplied.size() > 1, "several spans: " + supplied.size());
            List<Visit> visits = new ArrayList<>();
            for (Held h : held) {
                assertEquals(h.length >= THRESHOLD, h.inSupplied, "values in value files come in supplied buffers: " + h.key);
                visits.add(new Visit(h.key, Arrays.copyOfRange(h.buffer, h.offset, h.offset + h.length)));
            }
            assertSameEntries(expected, visits);
        }
    }

    @Test
    void sparseWantedValuesAreReadWithoutTheRest() throws IOException {
        CountingFileSystem fs = new CountingFileSystem(new LocalFileSystem());
        try (Engine engine = Engine.open(small(dir.resolve("e")).fileSystem(fs).build())) {
            Table t = engine.table("t");
            populate(engine, t);
            engine.flush();
            Map<String, byte[]> expected = expected(t, ReadOptions.SCAN);
            long allSeparated = expected.values().stream().filter(v -> v.length >= THRESHOLD).mapToLong(v -> v.length).sum();

            Map<String, Integer> lengths = new HashMap<>();
            long before = fs.snapshot().bytesRead();
            List<Visit> visits = visitAll(t, KeyRange.all(), ReadOptions.SCAN, (k, length) -> {
                String name = new String(k, UTF_8);
                lengths.put(name, length);
                return name.endsWith("00");
            });
            long read = fs.snapshot().bytesRead() - before;

            Map<String, Integer> expectedLengths = new TreeMap<>();
            expected.forEach((k, v) -> expectedLengths.put(k, v.length));
            assertEquals(expectedLengths, new TreeMap<>(lengths), "the filter sees every key with its value's length");
            Map<String, byte[]> wanted = new TreeMap<>(expected);
            wanted.keySet().removeIf(k -> !k.endsWith("00"));
            assertSameEntries(wanted, visits);
            assertTrue(read < allSeparated / 4, "read " + read + " bytes for a hundredth of " + allSeparated + " value bytes");
        }
    }

    @Test
    void readsACheckpointAfterCompactionAndValueGarbageCollection() throws IOException {
        Path checkpoint = dir.resolve("checkpoint");
        try (Engine engine = Engine.open(small(dir.resolve("e")).build())) {
            Table t = engine.table("t");
            populate(engine, t);
            engine.compactAll();
            long gcBefore = engine.stats().valueGcRuns();
            engine.collectValueGarbage(0.05);
            assertTrue(engine.stats().valueGcRuns() > gcBefore, "values were relocated");
            Map<String, byte[]> expected = expected(t, ReadOptions.SCAN);
            assertSameEntries(expected, visitAll(t, KeyRange.all(), ReadOptions.SCAN, (k, length) -> true));

            engine.checkpoint(checkpoint);
            Snapshot before = engine.snapshot();
            for (int i = 2; i < KEYS; i += 5) {
                t.put(key(i), value(3, i));
            }
            engine.compactAll();
            assertSameEntries(expected, visitAll(t, KeyRange.all(), ReadOptions.at(before), (k, length) -> true));
            before.close();

            try (Engine readOnly = Engine.openReadOnly(EngineOptions.builder(checkpoint).build())) {
                assertSameEntries(expected,
                        visitAll(readOnly.table("t"), KeyRange.all(), ReadOptions.SCAN, (k, length) -> true));
                assertTrue(visitAll(readOnly.table("absent"), KeyRange.all(), ReadOptions.SCAN, (k, l) -> true).isEmpty());
            }
        }
    }

    /** A backup's traversal: the same entries in the same order, its value-file reads through readers of its own. */
    @Test
    void aroundThePageCacheVisitsTheSameEntriesInTheSameOrder() throws IOException {
        Path checkpoint = dir.resolve("checkpoint");
        try (Engine engine = Engine.open(small(dir.resolve("e")).build())) {
            populate(engine, engine.table("t"));
            engine.checkpoint(checkpoint);
        }
        CountingFileSystem fs = new CountingFileSystem(new LocalFileSystem());
        try (Engine readOnly = Engine.openReadOnly(EngineOptions.builder(checkpoint).fileSystem(fs).build())) {
            Table t = readOnly.table("t");
            List<Visit> ordinary = visitAll(t, KeyRange.all(), ReadOptions.SCAN, (k, length) -> true);
            long readsBefore = fs.snapshot().readOps();
            List<Visit> around = visitAll(t, KeyRange.all(), ReadOptions.SCAN_AROUND_PAGE_CACHE, (k, length) -> true);
            assertTrue(fs.snapshot().readOps() > readsBefore, "read again, not from a cache");
            assertEquals(ordinary.stream().map(Visit::key).toList(), around.stream().map(Visit::key).toList());
            assertSameEntries(expected(t, ReadOptions.SCAN), around);
            List<Visit> sparse = visitAll(t, KeyRange.all(), ReadOptions.SCAN_AROUND_PAGE_CACHE,
                    (k, length) -> new String(k, UTF_8).endsWith("3"));
            Map<String, byte[]> wanted = expected(t, ReadOptions.SCAN);
            wanted.keySet().removeIf(k -> !k.endsWith("3"));
            assertSameEntries(wanted, sparse);
        }
    }

    @Test
    void aDamagedValueIsReportedNotVisited() throws IOException {
        Path d = dir.resolve("e");
        byte[] victim = value(1, 5);
        try (Engine engine = Engine.open(small(d).build())) {
            engine.table("t").put(key(4), value(1, 4));
            engine.table("t").put(key(5), victim);
            engine.flush(); // the tree points at the value: no log replay checks it at open
        }
        Path file;
        try (Stream<Path> files = Files.walk(d)) {
            file = files.filter(p -> p.toString().endsWith(".vlog")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(file);
        int at = indexOf(bytes, victim);
        bytes[at + victim.length / 2] ^= 0x10;
        Files.write(file, bytes);
        try (Engine readOnly = Engine.openReadOnly(EngineOptions.builder(d).build())) {
            for (ReadOptions options : List.of(ReadOptions.SCAN, ReadOptions.SCAN_AROUND_PAGE_CACHE)) {
                List<String> visited = new ArrayList<>();
                CorruptionException e = assertThrows(CorruptionException.class, () -> readOnly.table("t").scanInStorageOrder(
                        KeyRange.all(), options, (k, length) -> true,
                        (k, buffer, offset, length) -> visited.add(new String(k, UTF_8))));
                assertTrue(e.getMessage().contains("checksum"), e.getMessage());
                assertFalse(visited.contains("key-00005"), "damaged bytes are never handed over");
            }
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("value not found in its value file");
    }
}
