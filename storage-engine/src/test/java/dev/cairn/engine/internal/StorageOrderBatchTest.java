package dev.cairn.engine.internal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Table;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A range with more entries than a batch is visited batch by batch: each batch the next
 * key-ordered run of entries, in storage order within it (here the reverse of key order, since
 * keys were written from last to first).
 */
class StorageOrderBatchTest {
    private static final int BATCH = 7;

    @TempDir
    Path dir;

    @Test
    void eachBatchIsTheNextRunOfKeysInStorageOrder() throws IOException {
        EngineOptions options = EngineOptions.builder(dir).memtableBytes(16 << 10).valueThreshold(64)
                .valueFileBytes(8 << 10).targetFileBytes(8 << 10).build();
        int keys = 100;
        try (Engine engine = Engine.open(options)) {
            Table t = engine.table("t");
            for (int i = keys - 1; i >= 0; i--) {
                byte[] v = new byte[300 + i];
                new Random(i).nextBytes(v);
                t.put(String.format("k%03d", i).getBytes(UTF_8), v);
            }
            engine.flush();
            List<String> visited = new ArrayList<>();
            ((TableImpl) t).db().scanInStorageOrder((TableImpl) t, KeyRange.all(), ReadOptions.SCAN,
                    (k, length) -> true, (k, buffer, offset, length) -> {
                        assertEquals(300 + Integer.parseInt(new String(k, UTF_8).substring(1)), length);
                        visited.add(new String(k, UTF_8));
                    }, BATCH);
            assertEquals(keys, visited.size());
            for (int start = 0; start < keys; start += BATCH) {
                List<String> expected = new ArrayList<>();
                for (int i = Math.min(keys, start + BATCH) - 1; i >= start; i--) {
                    expected.add(String.format("k%03d", i));
                }
                assertEquals(expected, visited.subList(start, Math.min(keys, start + BATCH)), "batch from " + start);
            }
            assertTrue(engine.stats().valueFiles() > 3, "several value files");
        }
    }
}
