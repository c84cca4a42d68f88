package dev.cairn.engine.vlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.engine.fs.TestSeeds;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random records, flushes, syncs and crashes; everything read back must match what was written,
 * and after a crash the scan must yield a prefix of the records covering at least the synced ones.
 */
class ValueFileRandomizedTest {

    private record Written(byte[] key, byte[] value, ValuePointer pointer) {
    }

    @Test
    void randomRecordsSurviveFlushesSyncsAndCrashes() throws IOException {
        long seed = TestSeeds.seed("randomRecordsSurviveFlushesSyncsAndCrashes");
        Random random = new Random(seed);
        for (int round = 0; round < 20; round++) {
            runRound(random, seed, round);
        }
    }

    private void runRound(Random random, long seed, int round) throws IOException {
        String where = "seed=" + seed + " round=" + round;
        MemFileSystem fs = new MemFileSystem();
        Path dir = Path.of("/v");
        fs.createDirectories(dir);
        long fileNumber = random.nextInt(1_000_000);
        Path path = dir.resolve(ValueFileFormat.fileName(fileNumber));
        List<Written> written = new ArrayList<>();
        int syncedCount = 0;
        long syncedSize = 0;
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, fileNumber, WriteLifetime.LONG)) {
            int records = random.nextInt(60);
            for (int i = 0; i < records; i++) {
                byte[] key = new byte[random.nextInt(40)];
                random.nextBytes(key);
                int size = switch (random.nextInt(10)) {
                    case 0 -> 0;
                    case 1 -> 60_000 + random.nextInt(150_000);
                    default -> random.nextInt(30_000);
                };
                byte[] value = new byte[size];
                random.nextBytes(value);
                written.add(new Written(key, value, writer.append(key, value)));
                int action = random.nextInt(10);
                if (action == 0) {
                    writer.sync();
                    syncedCount = written.size();
                    syncedSize = writer.size();
                } else if (action < 3) {
                    writer.flush();
                }
            }
            writer.flush();
            try (ValueFileReader reader = ValueFileReader.open(fs, path, fileNumber)) {
                for (int i = 0; i < written.size(); i++) {
                    int pick = random.nextInt(written.size());
                    assertArrayEquals(written.get(pick).value(), reader.read(written.get(pick).pointer()), where);
                }
            }
            try (ValueFileScanner scanner = ValueFileScanner.open(fs, path, fileNumber, true)) {
                for (Written w : written) {
                    ValueFileScanner.Entry entry = scanner.next();
                    assertEquals(w.pointer(), entry.pointer(), where);
                    assertArrayEquals(w.key(), entry.key(), where);
                    assertArrayEquals(w.value(), entry.value(), where);
                }
                assertNull(scanner.next(), where);
                assertEquals(writer.size(), scanner.validLength(), where);
            }

            if (syncedCount == 0 && random.nextBoolean()) {
                writer.sync();
                syncedCount = written.size();
                syncedSize = writer.size();
            }
            if (syncedSize > 0) {
                checkCrash(fs.crashClone(random), path, fileNumber, written, syncedCount, syncedSize, where);
            }
        }
    }

    private static void checkCrash(MemFileSystem crashed, Path path, long fileNumber, List<Written> written,
            int syncedCount, long syncedSize, String where) throws IOException {
        try (ValueFileScanner scanner = ValueFileScanner.open(crashed, path, fileNumber, true)) {
            int count = 0;
            for (ValueFileScanner.Entry entry; (entry = scanner.next()) != null; count++) {
                Written w = written.get(count);
                assertEquals(w.pointer(), entry.pointer(), where);
                assertArrayEquals(w.value(), entry.value(), where);
            }
            assertTrue(count >= syncedCount, where + " lost synced records: " + count + " < " + syncedCount);
            assertTrue(scanner.validLength() >= syncedSize, where);
            try (ValueFileReader reader = ValueFileReader.open(crashed, path, fileNumber)) {
                for (int i = 0; i < count; i++) {
                    assertArrayEquals(written.get(i).value(), reader.read(written.get(i).pointer()), where);
                }
            }
        }
    }
}
