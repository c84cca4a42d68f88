package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.cairn.engine.fs.MemFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random operations against the engine and a sorted map, compared after every step that reads.
 * Each option set runs with its own seed, printed; {@code -Dcairn.seed=N} replays one.
 */
class EngineDifferentialTest {
    private static final Path DIR = Path.of("/db");

    static Stream<Arguments> optionSets() {
        return Stream.of(
                Arguments.of("tiny memtable", (UnaryOperator<EngineOptions.Builder>) b -> b.memtableBytes(8 << 10)),
                Arguments.of("tiny value threshold", (UnaryOperator<EngineOptions.Builder>) b -> b.valueThreshold(1)
                        .valueFileBytes(16 << 10)),
                Arguments.of("aggressive compaction", (UnaryOperator<EngineOptions.Builder>) b -> b
                        .level0CompactionTrigger(1).targetFileBytes(4096).level1Bytes(8192).levelSizeMultiplier(2)
                        .memtableBytes(16 << 10)),
                Arguments.of("defaults", (UnaryOperator<EngineOptions.Builder>) b -> b));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("optionSets")
    void matchesASortedMap(String name, UnaryOperator<EngineOptions.Builder> tweak) throws IOException {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("EngineDifferentialTest[" + name + "] seed=" + seed);
        Random random = new Random(seed);
        MemFileSystem fs = new MemFileSystem();
        EngineOptions options = tweak.apply(EngineOptions.builder(DIR).fileSystem(fs)).build();
        List<TreeMap<String, byte[]>> models = List.of(new TreeMap<>(), new TreeMap<>());
        Engine engine = Engine.open(options);
        try {
            for (int step = 0; step < 4000; step++) {
                int tableIndex = random.nextInt(2);
                Table table = engine.table("t" + tableIndex);
                TreeMap<String, byte[]> model = models.get(tableIndex);
                String key = "key" + random.nextInt(300);
                int op = random.nextInt(100);
                String where = "seed=" + seed + " step=" + step;
                if (op < 45) {
                    byte[] value = new byte[randomSize(random)];
                    random.nextBytes(value);
                    table.put(key.getBytes(), value);
                    model.put(key, value);
                } else if (op < 60) {
                    table.delete(key.getBytes());
                    model.remove(key);
                } else if (op < 65) {
                    WriteBatch batch = new WriteBatch();
                    for (int i = 0; i < 5; i++) {
                        int t = random.nextInt(2);
                        String k = "key" + random.nextInt(300);
                        if (random.nextBoolean()) {
                            byte[] v = new byte[randomSize(random)];
                            random.nextBytes(v);
                            batch.put(engine.table("t" + t), k.getBytes(), v);
                            models.get(t).put(k, v);
                        } else {
                            batch.delete(engine.table("t" + t), k.getBytes());
                            models.get(t).remove(k);
                        }
                    }
                    engine.write(batch);
                } else if (op < 85) {
                    byte[] expected = model.get(key);
                    byte[] actual = table.get(key.getBytes());
                    if (expected == null) {
                        assertNull(actual, where + " get " + key);
                    } else {
                        assertArrayEquals(expected, actual, where + " get " + key);
                    }
                } else if (op < 93) {
                    String lo = "key" + random.nextInt(300);
                    String hi = lo + "~";
                    List<String> expectedKeys = new ArrayList<>(model.subMap(lo, hi).keySet());
                    List<String> actualKeys = new ArrayList<>();
                    try (EntryIterator it = table.scan(new KeyRange(lo.getBytes(), hi.getBytes()))) {
                        while (it.hasNext()) {
                            Entry e = it.next();
                            String k = new String(e.key());
                            actualKeys.add(k);
                            assertArrayEquals(model.get(k), e.value(), where + " scan value " + k);
                        }
                    }
                    assertEquals(expectedKeys, actualKeys, where + " scan [" + lo + ", " + hi + ")");
                } else if (op < 95) {
                    engine.flush();
                } else if (op < 96) {
                    engine.compactAll();
                } else if (op < 97) {
                    engine.collectValueGarbage(0.2);
                } else if (op < 98) {
                    engine.close();
                    engine = Engine.open(options);
                } else {
                    verifyAll(engine, models, where + " after crash");
                    MemFileSystem crashed = fs.crashClone();
                    engine.close();
                    fs = crashed;
                    options = options.toBuilder().fileSystem(fs).build();
                    engine = Engine.open(options);
                }
            }
            verifyAll(engine, models, "seed=" + seed + " at the end");
        } finally {
            engine.close();
        }
    }

    private static int randomSize(Random random) {
        int r = random.nextInt(100);
        return r < 60 ? random.nextInt(64) : r < 95 ? random.nextInt(3000) : random.nextInt(40_000);
    }

    private static void verifyAll(Engine engine, List<TreeMap<String, byte[]>> models, String where) throws IOException {
        for (int t = 0; t < models.size(); t++) {
            TreeMap<String, byte[]> model = models.get(t);
            TreeMap<String, byte[]> actual = new TreeMap<>();
            try (EntryIterator it = engine.table("t" + t).scan(KeyRange.all())) {
                while (it.hasNext()) {
                    Entry e = it.next();
                    actual.put(new String(e.key()), e.value());
                }
            }
            assertEquals(model.keySet(), actual.keySet(), where + " keys of t" + t);
            for (Map.Entry<String, byte[]> e : model.entrySet()) {
                assertEquals(true, Arrays.equals(e.getValue(), actual.get(e.getKey())), where + " value of " + e.getKey());
            }
        }
    }
}
