package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.row.RowCodec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Typed rows through the engine: puts, batches, scans and reopening, with the value dictionary in play. */
class EngineTypedRowsTest {
    @TempDir
    Path dir;

    private static Row row(Random random) {
        byte[] hash = new byte[32];
        random.nextBytes(hash);
        Row.Builder b = Row.builder().fixed("hash", hash).uint("size", random.nextLong() >>> random.nextInt(64))
                .text("type", "type/" + random.nextInt(5));
        if (random.nextBoolean()) {
            b.text("note", "note " + random.nextInt(100_000));
        }
        return b.build();
    }

    private static byte[] key(int i) {
        return String.format("k%06d", i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void typedRowsSurviveBatchesScansAndReopening() throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("EngineTypedRowsTest seed " + seed);
        Random random = new Random(seed);
        List<Row> rows = new ArrayList<>();
        EngineOptions options = EngineOptions.builder(dir).build();
        try (Engine engine = Engine.open(options)) {
            Table table = engine.table("objects");
            for (int i = 0; i < 1000; i++) {
                Row row = row(random);
                rows.add(row);
                if (i % 2 == 0) {
                    table.putRow(key(i), row);
                } else {
                    engine.write(new WriteBatch().putRow(table, key(i), row));
                }
            }
            byte[] first = table.get(key(0));
            assertEquals(RowCodec.FORMAT_TYPED_CATALOGUED, first[0]);
            assertTrue(first.length < 1 + 2 + 32 + 10 + 3 + 12, "type is a dictionary id: " + first.length);
            engine.flush();
        }
        try (Engine engine = Engine.open(options)) {
            Table table = engine.table("objects");
            int i = 0;
            try (EntryIterator it = table.scan(KeyRange.prefix(new byte[] {'k'}))) {
                while (it.hasNext()) {
                    Entry e = it.next();
                    assertEquals(rows.get(i), table.decodeRow(e.value()), "seed " + seed + " row " + i);
                    i++;
                }
            }
            assertEquals(rows.size(), i);
            assertEquals(rows.get(7), table.getRow(key(7)));
            assertTrue(engine.stats().dictionaryValues() >= 5, "seed " + seed);
        }
    }
}
