package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TieredPlacementTest {
    @TempDir
    Path root;

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void fileClassesLandOnTheirTiersAndSurviveReopenAndCheckpoint() throws IOException {
        Path fast = root.resolve("fast");
        Path capacity = root.resolve("capacity");
        EngineOptions options = EngineOptions.builder(fast).capacityDirectory(capacity).fastLevels(1)
                .memtableBytes(32 << 10).valueThreshold(512).valueFileBytes(128 << 10).targetFileBytes(16 << 10)
                .level1Bytes(32 << 10).build();
        Random random = new Random(3);
        byte[][] values = new byte[400][];
        try (Engine e = Engine.open(options)) {
            Table t = e.table("t");
            for (int i = 0; i < values.length; i++) {
                values[i] = new byte[random.nextInt(2000)];
                random.nextBytes(values[i]);
                t.put(("k" + i).getBytes(), values[i]);
            }
            e.compactAll();
            for (int i = 0; i < 20; i++) {
                t.put(("young" + i).getBytes(), new byte[10]);
            }
            e.flush();
        }
        List<String> fastNames = names(fast);
        List<String> capacityNames = names(capacity);
        assertTrue(fastNames.stream().anyMatch(n -> n.endsWith(".log")), "log on fast: " + fastNames);
        assertTrue(fastNames.contains("CURRENT"));
        assertTrue(fastNames.stream().anyMatch(n -> n.endsWith(".sst")), "level 0 on fast: " + fastNames);
        assertTrue(fastNames.stream().noneMatch(n -> n.endsWith(".vlog")), "no value files on fast: " + fastNames);
        assertTrue(capacityNames.stream().anyMatch(n -> n.endsWith(".vlog")), "value files on capacity");
        assertTrue(capacityNames.stream().anyMatch(n -> n.endsWith(".sst")), "old levels on capacity");
        assertTrue(capacityNames.stream().allMatch(n -> n.endsWith(".vlog") || n.endsWith(".sst")), capacityNames.toString());

        Path copy = root.resolve("checkpoint");
        try (Engine e = Engine.open(options)) {
            Table t = e.table("t");
            for (int i = 0; i < values.length; i++) {
                assertArrayEquals(values[i], t.get(("k" + i).getBytes()));
            }
            e.checkpoint(copy);
        }
        try (Engine c = Engine.open(EngineOptions.builder(copy).build())) {
            assertArrayEquals(values[17], c.table("t").get("k17".getBytes()));
            assertEquals(10, c.table("t").get("young3".getBytes()).length);
        }
    }
}
