package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.Entry;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random tables under random options, checked against a TreeMap. Reproduce a failure with
 * {@code -Dsstable.seed=<the printed seed>}.
 */
class SSTableRandomizedTest {
    private static final int ROUNDS = 30;

    private final FileSystem fs = new LocalFileSystem();

    @TempDir
    Path dir;

    @Test
    void tablesAgreeWithATreeMap() throws IOException {
        long seed = Long.getLong("sstable.seed", System.nanoTime());
        System.out.println("SSTableRandomizedTest seed " + seed + " (rerun with -Dsstable.seed=" + seed + ")");
        Random random = new Random(seed);
        BlockCache cache = new BlockCache(256 << 10);
        for (int round = 0; round < ROUNDS; round++) {
            String context = "seed " + seed + " round " + round;
            SSTableOptions options = SSTableOptions.builder()
                    .blockBytes(256 + random.nextInt(16_000))
                    .restartInterval(1 + random.nextInt(32))
                    .bloomBitsPerKey(new int[] {0, 4, 10}[random.nextInt(3)])
                    .build();
            NavigableMap<byte[], byte[]> oracle = randomEntries(random, 1 + random.nextInt(3000), 1 + random.nextInt(600));
            Path path = dir.resolve("r" + round + ".sst");
            TableProperties written = write(fs, path, oracle, options);
            try (SSTableReader reader = SSTableReader.open(fs, path, round, cache)) {
                check(reader, oracle, written, random, context + " " + options);
            }
            cache.invalidateFile(round);
        }
    }

    private static void check(SSTableReader reader, NavigableMap<byte[], byte[]> oracle, TableProperties written,
            Random random, String context) throws IOException {
        List<Map.Entry<byte[], byte[]>> scanned = scan(reader, random.nextBoolean());
        assertEquals(oracle.size(), scanned.size(), context);
        int i = 0;
        for (Map.Entry<byte[], byte[]> expected : oracle.entrySet()) {
            assertArrayEquals(expected.getKey(), scanned.get(i).getKey(), context + " entry " + i);
            assertArrayEquals(expected.getValue(), scanned.get(i).getValue(), context + " entry " + i);
            assertTrue(reader.mayContain(InternalKeys.filterKey(expected.getKey())), context);
            i++;
        }
        TableProperties p = reader.properties();
        assertEquals(oracle.size(), p.entryCount(), context);
        assertArrayEquals(oracle.firstKey(), p.smallestKey(), context);
        assertArrayEquals(oracle.lastKey(), p.largestKey(), context);
        long deletions = oracle.keySet().stream().filter(k -> InternalKeys.kind(k) == InternalKeys.KIND_DELETE).count();
        assertEquals(deletions, p.deletionCount(), context);
        assertEquals(oracle.keySet().stream().mapToLong(InternalKeys::sequence).min().orElseThrow(),
                p.smallestSequence(), context);
        assertEquals(oracle.keySet().stream().mapToLong(InternalKeys::sequence).max().orElseThrow(),
                p.largestSequence(), context);
        assertEquals(written.fileSize(), p.fileSize(), context);

        List<byte[]> keys = new ArrayList<>(oracle.keySet());
        TableIterator it = reader.iterator(random.nextBoolean());
        for (int probe = 0; probe < 300; probe++) {
            byte[] target = target(random, keys);
            Map.Entry<byte[], byte[]> expected = oracle.ceilingEntry(target);
            Entry found = reader.seekFirstAtOrAfter(target, random.nextBoolean());
            it.seek(target);
            for (int step = random.nextInt(5); ; step--) {
                if (expected == null) {
                    assertFalse(it.valid(), context);
                    break;
                }
                assertArrayEquals(expected.getKey(), it.key(), context);
                assertArrayEquals(expected.getValue(), it.value(), context);
                if (step <= 0) {
                    break;
                }
                it.next();
                expected = oracle.higherEntry(expected.getKey());
            }
            Map.Entry<byte[], byte[]> first = oracle.ceilingEntry(target);
            if (first == null) {
                assertNull(found, context);
            } else {
                assertArrayEquals(first.getKey(), found.key(), context);
                assertArrayEquals(first.getValue(), found.value(), context);
            }
        }
    }

    /** An existing key, a neighbour of one (other sequence or user key byte), or random bytes. */
    private static byte[] target(Random random, List<byte[]> keys) {
        byte[] base = keys.get(random.nextInt(keys.size())).clone();
        switch (random.nextInt(4)) {
            case 0:
                return base;
            case 1:
                return InternalKeys.encode(InternalKeys.tableId(base), InternalKeys.userKey(base),
                        random.nextLong(InternalKeys.MAX_SEQUENCE + 1), (byte) random.nextInt(256));
            case 2:
                byte[] user = InternalKeys.userKey(base);
                if (user.length > 0) {
                    user[random.nextInt(user.length)] += (byte) (random.nextBoolean() ? 1 : -1);
                }
                return InternalKeys.encode(InternalKeys.tableId(base), user, InternalKeys.sequence(base), (byte) 1);
            default:
                byte[] randomUser = new byte[random.nextInt(6)];
                random.nextBytes(randomUser);
                return InternalKeys.encode(random.nextInt(4), randomUser, random.nextLong(1000), (byte) 1);
        }
    }
}
