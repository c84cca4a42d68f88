package dev.cairn.engine.row;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.cairn.engine.ColumnValue;
import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Row;
import dev.cairn.engine.fs.CountingFileSystem;
import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.FaultRule;
import dev.cairn.engine.fs.FileCorruptor;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.FsOp;
import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SchemaCatalogueTest {
    private static final Path DIR = Path.of("/catalogue");

    private static SchemaCatalogueOptions.Builder options(FileSystem fs) {
        return SchemaCatalogueOptions.builder(DIR).fileSystem(fs).segmentBytes(2048).maxNewSchemasPerTable(100_000);
    }

    private static List<String> schema(Random random) {
        TreeSet<String> names = new TreeSet<>();
        int n = 1 + random.nextInt(6);
        while (names.size() < n) {
            names.add("col" + random.nextInt(12));
        }
        return List.copyOf(names);
    }

    @Test
    void idsAreStableAndSurviveReopening() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Map<List<String>, Integer> seen = new HashMap<>();
        Random random = new Random(1);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            for (int i = 0; i < 200; i++) {
                List<String> s = schema(random);
                int id = catalogue.schemaIdFor("objects", s);
                Integer before = seen.putIfAbsent(s, id);
                if (before != null) {
                    assertEquals(before, id);
                }
                assertEquals(s, catalogue.columns(id));
            }
        }
        assertTrue(fs.list(DIR).size() > 1, "several segments");
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            for (Map.Entry<List<String>, Integer> e : seen.entrySet()) {
                assertEquals(e.getKey(), catalogue.columns(e.getValue()));
                assertEquals(e.getValue(), catalogue.schemaIdFor("objects", e.getKey()));
            }
            int max = seen.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            assertEquals(max + 1, catalogue.nextId());
            assertNull(catalogue.columns(max + 1));
        }
    }

    @Test
    void unsortedColumnsAreRefused() throws IOException {
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(new MemFileSystem()).build())) {
            assertThrows(IllegalArgumentException.class, () -> catalogue.schemaIdFor("t", List.of("b", "a")));
        }
    }

    /**
     * Random runs, each ending in a crash — at a random point, sometimes inside an id assignment
     * whose sync fails, with torn and garbage tails. After every crash, every id ever returned
     * must still name the same columns, and no id is ever handed out twice.
     */
    /** Whatever an id was handed out for: an untyped or typed schema, or a dictionary value. */
    private record Definition(List<String> columns, List<ColumnSpec> typed, String column, String value) {
        static Definition of(SchemaCatalogue catalogue, int id, Definition expected) {
            if (expected.column != null) {
                byte[] v = catalogue.value(id, expected.column);
                return new Definition(null, null, expected.column, v == null ? null : new String(v, UTF_8));
            }
            return new Definition(catalogue.columns(id), catalogue.typedColumns(id), null, null);
        }
    }

    private static List<ColumnSpec> typedSchema(Random random) {
        List<ColumnSpec> columns = new ArrayList<>();
        for (String name : schema(random)) {
            columns.add(switch (random.nextInt(3)) {
                case 0 -> new ColumnSpec(name, ColumnValue.Type.UINT, 0);
                case 1 -> new ColumnSpec(name, ColumnValue.Type.FIXED, 1 + random.nextInt(40));
                default -> new ColumnSpec(name, ColumnValue.Type.BYTES, 0);
            });
        }
        return columns;
    }

    @Test
    void crashesDuringAssignmentNeverLoseOrReuseAnId() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("catalogue crash seed " + seed);
        Random random = new Random(seed);
        MemFileSystem mem = new MemFileSystem();
        Map<Integer, Definition> returned = new HashMap<>();
        Map<String, Integer> valueIds = new HashMap<>();
        int values = 0;
        for (int run = 0; run < 60; run++) {
            FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
            SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).maxValuesPerColumn(40).build());
            for (Map.Entry<Integer, Definition> e : returned.entrySet()) {
                assertEquals(e.getValue(), Definition.of(catalogue, e.getKey(), e.getValue()),
                        "seed " + seed + " run " + run + " id " + e.getKey());
            }
            int max = returned.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
            assertTrue(catalogue.nextId() > max, "seed " + seed + " run " + run);
            if (random.nextInt(3) == 0) {
                fs.inject(FaultRule.on(FsOp.SYNC).afterSucceeding(random.nextInt(6)).once());
            }
            int assignments = random.nextInt(20);
            for (int i = 0; i < assignments; i++) {
                int id;
                Definition definition;
                try {
                    switch (random.nextInt(3)) {
                        case 0 -> {
                            List<String> s = schema(random);
                            id = catalogue.schemaIdFor("t" + random.nextInt(3), s);
                            definition = new Definition(s, null, null, null);
                        }
                        case 1 -> {
                            List<ColumnSpec> s = typedSchema(random);
                            id = catalogue.typedSchemaIdFor("t" + random.nextInt(3), s);
                            definition = new Definition(null, s, null, null);
                        }
                        default -> {
                            String column = "col" + random.nextInt(4);
                            String value = "v" + random.nextInt(60);
                            id = catalogue.valueIdFor(column, value.getBytes(UTF_8));
                            if (id == SchemaCatalogue.NO_VALUE) {
                                assertTrue(catalogue.valueCount() >= 40, "seed " + seed + ": only the cap refuses");
                                continue;
                            }
                            Integer before = valueIds.putIfAbsent(column + "=" + value, id);
                            assertTrue(before == null || before == id, "seed " + seed + ": a value changed its id");
                            definition = new Definition(null, null, column, value);
                            values++;
                        }
                    }
                } catch (IOException e) {
                    break;
                }
                assertTrue(id > 0, "seed " + seed);
                Definition previous = returned.putIfAbsent(id, definition);
                if (previous != null) {
                    assertEquals(previous, definition, "seed " + seed + ": id " + id + " handed out twice");
                }
            }
            boolean tornTails = random.nextBoolean();
            boolean garbage = random.nextBoolean();
            mem = tornTails ? mem.crashClone(random, garbage) : mem.crashClone();
        }
        assertTrue(values > 50, "seed " + seed + ": dictionary values exercised " + values);
        System.out.println("catalogue crash test: " + returned.size() + " ids handed out over 60 crashes");
    }

    @Test
    void aDamagedLastDictionaryRecordIsSkippedNotReused() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        int lastId;
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).segmentBytes(1 << 20).build())) {
            catalogue.typedSchemaIdFor("t", List.of(new ColumnSpec("a", ColumnValue.Type.BYTES, 0)));
            catalogue.valueIdFor("a", "x".getBytes(UTF_8));
            lastId = catalogue.valueIdFor("a", "y".getBytes(UTF_8));
        }
        Path file = DIR.resolve(SchemaCatalogue.fileName(1));
        FileCorruptor.flipBit(fs, file, fs.size(file) - 1, 3);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            assertNull(catalogue.value(lastId, "a"), "its record is gone");
            assertTrue(catalogue.nextId() > lastId, "but its id is never handed out again");
            assertEquals("x", new String(catalogue.value(lastId - 1, "a"), UTF_8));
            assertNull(catalogue.value(lastId - 1, "b"), "a value belongs to its column only");
            int again = catalogue.valueIdFor("a", "y".getBytes(UTF_8));
            assertTrue(again > lastId, "the value gets a fresh id: " + again);
        }
    }

    @Test
    void aDamagedLastRecordIsSkippedNotReused() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        int lastId;
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).segmentBytes(1 << 20).build())) {
            catalogue.schemaIdFor("t", List.of("a"));
            catalogue.schemaIdFor("t", List.of("b"));
            lastId = catalogue.schemaIdFor("t", List.of("c"));
        }
        Path file = DIR.resolve(SchemaCatalogue.fileName(1));
        FileCorruptor.flipBit(fs, file, fs.size(file) - 2, 0);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            assertNull(catalogue.columns(lastId), "its record is gone");
            assertTrue(catalogue.nextId() > lastId, "but its id is never handed out again");
            assertEquals(List.of("a"), catalogue.columns(1));
        }
    }

    @Test
    void aDamagedRecordFollowedByIntactOnesIsCorruption() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).segmentBytes(1 << 20).build())) {
            for (String c : List.of("a", "b", "c", "d")) {
                catalogue.schemaIdFor("t", List.of(c));
            }
        }
        Path file = DIR.resolve(SchemaCatalogue.fileName(1));
        FileCorruptor.flipBit(fs, file, CatalogueFormat.HEADER_BYTES + 12, 2);
        CorruptionException e = assertThrows(CorruptionException.class, () -> SchemaCatalogue.open(options(fs).build()));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("offset"), e.getMessage());
    }

    @Test
    void aSegmentWhoseHeaderNeverBecameDurableIsIgnored() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            catalogue.schemaIdFor("t", List.of("a"));
        }
        fs.create(DIR.resolve(SchemaCatalogue.fileName(2)), dev.cairn.engine.fs.WriteLifetime.LONG)
                .append(new byte[] {'C', 'A', 'I'}, 0, 3);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            assertEquals(List.of("a"), catalogue.columns(1));
            assertEquals(2, catalogue.nextId());
            assertEquals(2, catalogue.schemaIdFor("t", List.of("b")));
        }
    }

    @Test
    void aVariableTableStopsCreatingIdsDurably() throws IOException {
        MemFileSystem fs = new MemFileSystem();
        Random random = new Random(5);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).maxNewSchemasPerTable(4).maxValueBytes(0)
                .build())) {
            assertEquals(1, catalogue.schemaIdFor("steady", List.of("a", "b")));
            int ids = 0;
            int selfDescribing = 0;
            for (int i = 0; i < 50; i++) {
                Row row = RowCodecTest.randomRow(random);
                byte[] encoded = RowCodec.encode("wild", row, catalogue);
                assertEquals(row, RowCodec.decode(encoded, catalogue));
                if (RowCodec.schemaId(encoded) == SchemaCatalogue.NO_SCHEMA) {
                    selfDescribing++;
                } else {
                    ids++;
                }
            }
            assertTrue(catalogue.isVariable("wild"));
            assertFalse(catalogue.isVariable("steady"));
            assertEquals(4, catalogue.newSchemasBy("wild"));
            assertTrue(selfDescribing > 30, "self-describing rows " + selfDescribing + ", catalogued " + ids);
            assertEquals(1, catalogue.schemaIdFor("wild", List.of("a", "b")), "known column sets keep their id");
        }
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).maxNewSchemasPerTable(4).build())) {
            assertTrue(catalogue.isVariable("wild"));
            assertEquals(SchemaCatalogue.NO_SCHEMA, catalogue.schemaIdFor("wild", List.of("zz")));
            assertEquals(4, catalogue.newSchemasBy("wild"));
            assertEquals(6, catalogue.schemaIdFor("steady", List.of("zz")));
        }
    }

    @Test
    void concurrentFirstUsesAgreeOnOneId() throws Exception {
        MemFileSystem fs = new MemFileSystem();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).maxNewSchemasPerTable(1000).build())) {
            List<Future<List<Integer>>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(pool.submit(() -> {
                    List<Integer> ids = new ArrayList<>();
                    for (int i = 0; i < 100; i++) {
                        ids.add(catalogue.schemaIdFor("t", List.of("c" + (1000 + i))));
                    }
                    return ids;
                }));
            }
            List<Integer> first = results.get(0).get(60, TimeUnit.SECONDS);
            for (Future<List<Integer>> r : results) {
                assertEquals(first, r.get(60, TimeUnit.SECONDS));
            }
            assertEquals(100, catalogue.schemaCount());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anIdIsDurableBeforeItIsReturned() throws IOException {
        MemFileSystem mem = new MemFileSystem();
        CountingFileSystem fs = new CountingFileSystem(mem);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            long syncs = fs.snapshot().syncs();
            int id = catalogue.schemaIdFor("t", List.of("a", "b"));
            assertTrue(fs.snapshot().syncs() > syncs);
            MemFileSystem after = mem.crashClone();
            try (SchemaCatalogue reopened = SchemaCatalogue.open(options(after).build())) {
                assertEquals(List.of("a", "b"), reopened.columns(id));
            }
        }
    }
}
