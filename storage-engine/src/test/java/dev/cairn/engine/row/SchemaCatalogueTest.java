package dev.cairn.engine.row;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.cache.CrashingMemoryFileSystem;
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

    private static SchemaCatalogueOptions.Builder options(CrashingMemoryFileSystem fs) {
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
        CrashingMemoryFileSystem fs = new CrashingMemoryFileSystem();
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
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(new CrashingMemoryFileSystem()).build())) {
            assertThrows(IllegalArgumentException.class, () -> catalogue.schemaIdFor("t", List.of("b", "a")));
        }
    }

    /**
     * Random runs, each ending in a crash — at a random point, sometimes inside an id assignment
     * whose sync fails, with torn and garbage tails. After every crash, every id ever returned
     * must still name the same columns, and no id is ever handed out twice.
     */
    @Test
    void crashesDuringAssignmentNeverLoseOrReuseAnId() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("catalogue crash seed " + seed);
        Random random = new Random(seed);
        CrashingMemoryFileSystem fs = new CrashingMemoryFileSystem();
        Map<Integer, List<String>> returned = new HashMap<>();
        for (int run = 0; run < 60; run++) {
            SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build());
            for (Map.Entry<Integer, List<String>> e : returned.entrySet()) {
                assertEquals(e.getValue(), catalogue.columns(e.getKey()), "seed " + seed + " run " + run);
            }
            int max = returned.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
            assertTrue(catalogue.nextId() > max, "seed " + seed + " run " + run);
            if (random.nextInt(3) == 0) {
                fs.failSyncAfter(1 + random.nextInt(6));
            }
            int assignments = random.nextInt(20);
            for (int i = 0; i < assignments; i++) {
                List<String> s = schema(random);
                int id;
                try {
                    id = catalogue.schemaIdFor("t" + random.nextInt(3), s);
                } catch (IOException e) {
                    break;
                }
                assertTrue(id > 0, "seed " + seed);
                List<String> previous = returned.putIfAbsent(id, s);
                if (previous != null) {
                    assertEquals(previous, s, "seed " + seed + ": id " + id + " handed out twice");
                }
            }
            fs.failSyncAfter(-1);
            fs = fs.crash(random, random.nextBoolean(), random.nextBoolean());
        }
        System.out.println("catalogue crash test: " + returned.size() + " ids handed out over 60 crashes");
    }

    @Test
    void aDamagedLastRecordIsSkippedNotReused() throws IOException {
        CrashingMemoryFileSystem fs = new CrashingMemoryFileSystem();
        int lastId;
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).segmentBytes(1 << 20).build())) {
            catalogue.schemaIdFor("t", List.of("a"));
            catalogue.schemaIdFor("t", List.of("b"));
            lastId = catalogue.schemaIdFor("t", List.of("c"));
        }
        Path file = DIR.resolve(SchemaCatalogue.fileName(1));
        fs.flipBit(file, fs.size(file) - 2, 0);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            assertNull(catalogue.columns(lastId), "its record is gone");
            assertTrue(catalogue.nextId() > lastId, "but its id is never handed out again");
            assertEquals(List.of("a"), catalogue.columns(1));
        }
    }

    @Test
    void aDamagedRecordFollowedByIntactOnesIsCorruption() throws IOException {
        CrashingMemoryFileSystem fs = new CrashingMemoryFileSystem();
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).segmentBytes(1 << 20).build())) {
            for (String c : List.of("a", "b", "c", "d")) {
                catalogue.schemaIdFor("t", List.of(c));
            }
        }
        Path file = DIR.resolve(SchemaCatalogue.fileName(1));
        fs.flipBit(file, CatalogueFormat.HEADER_BYTES + 12, 2);
        CorruptionException e = assertThrows(CorruptionException.class, () -> SchemaCatalogue.open(options(fs).build()));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("offset"), e.getMessage());
    }

    @Test
    void aSegmentWhoseHeaderNeverBecameDurableIsIgnored() throws IOException {
        CrashingMemoryFileSystem fs = new CrashingMemoryFileSystem();
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
        CrashingMemoryFileSystem fs = new CrashingMemoryFileSystem();
        Random random = new Random(5);
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).maxNewSchemasPerTable(4).build())) {
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
            assertTrue(selfDescribing > 40, "self-describing rows " + selfDescribing + ", catalogued " + ids);
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
        CrashingMemoryFileSystem fs = new CrashingMemoryFileSystem();
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
        CrashingMemoryFileSystem fs = new CrashingMemoryFileSystem();
        try (SchemaCatalogue catalogue = SchemaCatalogue.open(options(fs).build())) {
            int syncs = fs.syncCount();
            int id = catalogue.schemaIdFor("t", List.of("a", "b"));
            assertTrue(fs.syncCount() > syncs);
            CrashingMemoryFileSystem after = fs.crash(new Random(3), false, false);
            try (SchemaCatalogue reopened = SchemaCatalogue.open(options(after).build())) {
                assertEquals(List.of("a", "b"), reopened.columns(id));
            }
        }
    }
}
