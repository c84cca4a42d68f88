package dev.cairn.engine.vlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Records whose dead values had their blocks punched ({@link ValueHoles}): scans and the dump
 * step over them, wholly or partly punched (a crash midway), and still tell damage apart.
 */
class ReclaimedRecordsTest {
    private final Path dir = Path.of("/v");
    private final Path file = dir.resolve("000009.vlog");
    private final List<ValuePointer> pointers = new ArrayList<>();
    private final List<byte[]> values = new ArrayList<>();
    private MemFileSystem fs;

    @BeforeEach
    void setUp() throws IOException {
        fs = new MemFileSystem();
        fs.createDirectories(dir);
        Random random = new Random(9);
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, 9, WriteLifetime.LONG)) {
            for (int i = 0; i < 5; i++) {
                byte[] value = new byte[20_000 + 333 * i];
                random.nextBytes(value);
                values.add(value);
                pointers.add(writer.append(key(i), value));
            }
            writer.sync();
        }
    }

    private static byte[] key(int i) {
        return ("\0\1object-" + i).getBytes(StandardCharsets.US_ASCII);
    }

    private List<ValueFileScanner.Entry> scan() throws IOException {
        List<ValueFileScanner.Entry> entries = new ArrayList<>();
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 9, true)) {
            for (ValueFileScanner.Entry e; (e = scanner.next()) != null; ) {
                entries.add(e);
            }
            assertFalse(scanner.tornTail());
            assertEquals(scanner.fileSize(), scanner.validLength(), "the scan reaches the end");
        }
        return entries;
    }

    @Test
    void aScanStepsOverWhollyAndPartlyPunchedValuesAndReturnsTheRestIntact() throws IOException {
        ValuePointer whole = pointers.get(1);
        assertTrue(fs.punchHole(file, ValueHoles.start(whole), ValueHoles.length(whole)) > 0);
        ValuePointer partly = pointers.get(3);
        fs.punchHole(file, ValueHoles.start(partly) + ValueHoles.BLOCK_BYTES, ValueHoles.BLOCK_BYTES);

        List<ValueFileScanner.Entry> entries = scan();
        assertEquals(5, entries.size());
        for (int i = 0; i < 5; i++) {
            ValueFileScanner.Entry e = entries.get(i);
            assertArrayEquals(key(i), e.key());
            assertEquals(pointers.get(i).offset(), e.pointer().offset());
            assertEquals(pointers.get(i).length(), e.pointer().length());
            boolean punched = i == 1 || i == 3;
            assertEquals(punched, e.reclaimed(), "record " + i);
            if (!punched) {
                assertArrayEquals(values.get(i), e.value());
                assertEquals(pointers.get(i), e.pointer());
            }
        }
        try (ValueFileReader reader = ValueFileReader.open(fs, file, 9)) {
            assertArrayEquals(values.get(4), reader.read(pointers.get(4)));
            assertThrows(CorruptionException.class, () -> reader.read(whole), "a punched value never reads");
        }
    }

    @Test
    void damageWithoutAZeroBlockIsStillDamageAndALiveZeroBlockIsJustAValue() throws IOException {
        fs.flipBitInPlace(file, pointers.get(1).offset() + 5000, 3);
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 9, false)) {
            scanner.next();
            assertThrows(CorruptionException.class, scanner::next);
        }

        byte[] sparse = new byte[3 * ValueHoles.BLOCK_BYTES];
        sparse[0] = 1;
        Path other = dir.resolve("000010.vlog");
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, 10, WriteLifetime.LONG)) {
            writer.append(key(0), sparse);
            writer.sync();
        }
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, other, 10, true)) {
            ValueFileScanner.Entry e = scanner.next();
            assertFalse(e.reclaimed());
            assertArrayEquals(sparse, e.value());
        }
    }

    @Test
    void theDumpListsReclaimedRecords() throws IOException {
        ValuePointer dead = pointers.get(2);
        fs.punchHole(file, ValueHoles.start(dead), ValueHoles.length(dead));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ValueFileDump.dump(fs, file, out);
        }
        String dump = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(dump.contains("value at " + dead.offset() + ", " + dead.length() + " bytes, reclaimed (dead, "
                + ValueHoles.length(dead) + " bytes given back)"), dump);
        assertTrue(dump.contains("4 records, "), dump);
        assertTrue(dump.contains(", 1 reclaimed, valid length "), dump);
    }
}
