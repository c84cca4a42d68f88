package dev.cairn.engine.vlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.CountingFileSystem;
import dev.cairn.engine.fs.FaultInjectingFileSystem;
import dev.cairn.engine.fs.FaultRule;
import dev.cairn.engine.fs.FileCorruptor;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.FsOp;
import dev.cairn.engine.fs.IoCounters;
import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writer, reader and scanner of value files together: round trips, crashes, damage. */
class ValueFileTest {

    private final Path dir = Path.of("/values");
    private final Path file = dir.resolve("000007.vlog");
    private MemFileSystem fs;

    @BeforeEach
    void setUp() throws IOException {
        fs = new MemFileSystem();
        fs.createDirectories(dir);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] pattern(int length, int seed) {
        byte[] value = new byte[length];
        for (int i = 0; i < length; i++) {
            value[i] = (byte) (i * 131 + seed * 7 + (i >>> 9));
        }
        return value;
    }

    private List<ValuePointer> writeThree() throws IOException {
        List<ValuePointer> pointers = new ArrayList<>();
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, 7, WriteLifetime.LONG)) {
            pointers.add(writer.append(bytes("key-a"), bytes("value one")));
            pointers.add(writer.append(bytes("key-b"), bytes("the second value")));
            pointers.add(writer.append(bytes("key-c"), bytes("three")));
            writer.sync();
        }
        return pointers;
    }

    private List<ValueFileScanner.Entry> scanAll(FileSystem on, Path path) throws IOException {
        List<ValueFileScanner.Entry> entries = new ArrayList<>();
        try (ValueFileScanner scanner = ValueFileScanner.open(on, path, 7, true)) {
            for (ValueFileScanner.Entry e; (e = scanner.next()) != null; ) {
                entries.add(e);
            }
        }
        return entries;
    }

    private void writeFile(Path path, byte[] content) throws IOException {
        try (WritableFile out = fs.create(path, WriteLifetime.NOT_SET)) {
            out.append(ByteBuffer.wrap(content));
        }
    }

    @Test
    void roundTripOfSmallLargeAndEmptyValues() throws IOException {
        byte[][] values = {bytes("small"), new byte[0], pattern(ValueFileWriter.BUFFER_SIZE, 1),
            pattern(ValueFileWriter.BUFFER_SIZE - 30, 2), pattern(300_000, 3), pattern(1, 4)};
        List<ValuePointer> pointers = new ArrayList<>();
        long expectedSize = ValueFileFormat.HEADER_SIZE;
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, 7, WriteLifetime.LONG)) {
            assertEquals(file, writer.path());
            for (int i = 0; i < values.length; i++) {
                byte[] key = i == 1 ? new byte[0] : bytes("key" + i);
                pointers.add(writer.append(key, values[i]));
                expectedSize += ValueFileFormat.RECORD_HEADER_SIZE + key.length + values[i].length;
                assertEquals(expectedSize, writer.size());
            }
            writer.flush();
            assertEquals(expectedSize, fs.size(file));
        }
        try (ValueFileReader reader = ValueFileReader.open(fs, file, 7)) {
            for (int i = 0; i < values.length; i++) {
                assertArrayEquals(values[i], reader.read(pointers.get(i)));
                assertArrayEquals(values[i], reader.read(ValuePointer.decode(pointers.get(i).encode())));
            }
        }
        List<ValueFileScanner.Entry> entries = scanAll(fs, file);
        assertEquals(values.length, entries.size());
        for (int i = 0; i < values.length; i++) {
            assertEquals(pointers.get(i), entries.get(i).pointer());
            assertArrayEquals(values[i], entries.get(i).value());
            assertArrayEquals(i == 1 ? new byte[0] : bytes("key" + i), entries.get(i).key());
        }
    }

    @Test
    void roundTripOnTheLocalFileSystem(@TempDir Path temp) throws IOException {
        LocalFileSystem local = new LocalFileSystem();
        ValuePointer pointer;
        try (ValueFileWriter writer = ValueFileWriter.create(local, temp, 3, WriteLifetime.EXTREME)) {
            writer.append(bytes("k0"), pattern(100_000, 9));
            pointer = writer.append(bytes("k1"), bytes("on disk"));
            writer.sync();
        }
        try (ValueFileReader reader = ValueFileReader.open(local, temp.resolve("000003.vlog"), 3)) {
            assertArrayEquals(bytes("on disk"), reader.read(pointer));
        }
    }

    @Test
    void pointersAddressTheValueBytesInTheDocumentedLayout() throws IOException {
        List<ValuePointer> pointers = writeThree();
        byte[] content = FileCorruptor.readAll(fs, file);
        assertArrayEquals(bytes("CAIRNVLG"), Arrays.copyOf(content, 8));
        assertEquals(1, ByteBuffer.wrap(content, 8, 4).getInt());
        assertEquals(0, ByteBuffer.wrap(content, 12, 4).getInt());
        ByteBuffer record = ByteBuffer.wrap(content, 16, 12 + 5 + 9);
        int crc = record.getInt();
        assertEquals(5, record.getInt());
        assertEquals(9, record.getInt());
        assertEquals(dev.cairn.engine.util.Checksums.crc32c(content, 20, 8 + 5 + 9), crc);
        assertEquals(16 + 12 + 5, pointers.get(0).offset());
        assertEquals(9, pointers.get(0).length());
        assertEquals(dev.cairn.engine.util.Checksums.crc32c(bytes("value one")), pointers.get(0).crc32c());
        assertEquals(16 + 12 + 5 + 9 + 12 + 5, pointers.get(1).offset());
    }

    @Test
    void aPointReadIsOneDeviceRead() throws IOException {
        List<ValuePointer> pointers = writeThree();
        CountingFileSystem counting = new CountingFileSystem(fs);
        try (ValueFileReader reader = ValueFileReader.open(counting, file, 7)) {
            IoCounters before = counting.snapshot();
            reader.read(pointers.get(1));
            IoCounters delta = counting.snapshot().minus(before);
            assertEquals(1, delta.readOps());
            assertEquals(pointers.get(1).length(), delta.bytesRead());
        }
    }

    @Test
    void valuesBecomeReadableAtFlush() throws IOException {
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, 7, WriteLifetime.LONG);
                ValueFileReader reader = ValueFileReader.open(fs, file, 7)) {
            ValuePointer pointer = writer.append(bytes("k"), bytes("buffered"));
            CorruptionException before = assertThrows(CorruptionException.class, () -> reader.read(pointer));
            assertTrue(before.getMessage().contains(file.toString()), before.getMessage());
            writer.flush();
            assertArrayEquals(bytes("buffered"), reader.read(pointer));
        }
    }

    @Test
    void onlySyncedRecordsSurviveACrash() throws IOException {
        ValueFileWriter writer = ValueFileWriter.create(fs, dir, 7, WriteLifetime.LONG);
        ValuePointer kept = writer.append(bytes("k1"), bytes("synced"));
        writer.sync();
        long syncedSize = writer.size();
        ValuePointer lost = writer.append(bytes("k2"), bytes("flushed only"));
        writer.flush();

        MemFileSystem crashed = fs.crashClone();
        try (ValueFileReader reader = ValueFileReader.open(crashed, file, 7)) {
            assertArrayEquals(bytes("synced"), reader.read(kept));
            assertThrows(CorruptionException.class, () -> reader.read(lost));
        }
        try (ValueFileScanner scanner = ValueFileScanner.open(crashed, file, 7, false)) {
            assertEquals(kept, scanner.next().pointer());
            assertNull(scanner.next());
            assertEquals(syncedSize, scanner.validLength());
            assertFalse(scanner.tornTail());
        }
        writer.close();
    }

    @Test
    void firstSyncMakesTheFileNameDurable() throws IOException {
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, 7, WriteLifetime.LONG)) {
            writer.append(bytes("k"), bytes("v"));
            assertFalse(fs.crashClone().exists(file));
            writer.sync();
            assertTrue(fs.crashClone().exists(file));
        }
    }

    @Test
    void tornTailAtEveryByteOfTheLastRecord() throws IOException {
        List<ValuePointer> pointers = writeThree();
        byte[] content = FileCorruptor.readAll(fs, file);
        long lastRecord = pointers.get(2).offset() - ValueFileFormat.RECORD_HEADER_SIZE - "key-c".length();
        long end = pointers.get(1).offset() + pointers.get(1).length();
        assertEquals(end, lastRecord);
        for (int cut = (int) lastRecord; cut < content.length; cut++) {
            writeFile(file, Arrays.copyOf(content, cut));
            try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 7, true)) {
                assertEquals(pointers.get(0), scanner.next().pointer(), "cut at " + cut);
                assertEquals(pointers.get(1), scanner.next().pointer(), "cut at " + cut);
                assertNull(scanner.next(), "cut at " + cut);
                assertEquals(lastRecord, scanner.validLength(), "cut at " + cut);
                assertEquals(cut > lastRecord, scanner.tornTail(), "cut at " + cut);
                assertNull(scanner.next(), "the end stays the end");
            }
            try (ValueFileReader reader = ValueFileReader.open(fs, file, 7)) {
                assertArrayEquals(bytes("the second value"), reader.read(pointers.get(1)));
                assertThrows(CorruptionException.class, () -> reader.read(pointers.get(2)), "cut at " + cut);
            }
        }
    }

    @Test
    void tornHeaderScansAsEmptyButCannotBeOpenedForReading() throws IOException {
        byte[] header = ValueFileFormat.encodeHeader();
        for (int cut = 0; cut < ValueFileFormat.HEADER_SIZE; cut++) {
            writeFile(file, Arrays.copyOf(header, cut));
            try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 7, false)) {
                assertNull(scanner.next());
                assertEquals(0, scanner.validLength());
                assertEquals(cut > 0, scanner.tornTail());
            }
            CorruptionException e = assertThrows(CorruptionException.class, () -> ValueFileReader.open(fs, file, 7));
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        }
    }

    @Test
    void lastRecordFailingItsChecksumOrZeroedTailIsATornTail() throws IOException {
        List<ValuePointer> pointers = writeThree();
        long size = fs.size(file);
        FileCorruptor.flipBit(fs, file, size - 1, 0);
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 7, false)) {
            scanner.next();
            scanner.next();
            assertNull(scanner.next());
            assertTrue(scanner.tornTail());
            assertEquals(pointers.get(1).offset() + pointers.get(1).length(), scanner.validLength());
        }

        byte[] zeroTail = Arrays.copyOf(FileCorruptor.readAll(fs, file), (int) size + 4096);
        writeFile(file, zeroTail);
        FileCorruptor.overwrite(fs, file, pointers.get(1).offset() + pointers.get(1).length(), new byte[(int) (size
                - pointers.get(1).offset() - pointers.get(1).length())]);
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 7, false)) {
            assertEquals(pointers.get(0), scanner.next().pointer());
            assertEquals(pointers.get(1), scanner.next().pointer());
            assertNull(scanner.next());
            assertTrue(scanner.tornTail());
        }
    }

    @Test
    void everyBitFlipInAValueFailsItsRead() throws IOException {
        List<ValuePointer> pointers = writeThree();
        ValuePointer pointer = pointers.get(1);
        byte[] original = FileCorruptor.readAll(fs, file);
        for (long offset = pointer.offset(); offset < pointer.offset() + pointer.length(); offset++) {
            for (int bit = 0; bit < 8; bit++) {
                writeFile(file, original);
                FileCorruptor.flipBit(fs, file, offset, bit);
                try (ValueFileReader reader = ValueFileReader.open(fs, file, 7)) {
                    CorruptionException e = assertThrows(CorruptionException.class, () -> reader.read(pointer));
                    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("offset "
                            + pointer.offset()), e.getMessage());
                    assertArrayEquals(bytes("value one"), reader.read(pointers.get(0)));
                }
            }
        }
    }

    @Test
    void damageToAMiddleRecordStopsTheScanWithCorruption() throws IOException {
        List<ValuePointer> pointers = writeThree();
        byte[] original = FileCorruptor.readAll(fs, file);
        long recordStart = pointers.get(0).offset() + pointers.get(0).length();
        long recordEnd = pointers.get(1).offset() + pointers.get(1).length();
        for (long offset = recordStart; offset < recordEnd; offset++) {
            long inHeader = offset - recordStart;
            if (inHeader == 6 || (inHeader >= 8 && inHeader < 11)) {
                continue; // a length made larger but possible reaches past the end: a torn tail, as documented
            }
            for (int bit : new int[] {0, 3}) {
                writeFile(file, original);
                FileCorruptor.flipBit(fs, file, offset, bit);
                try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 7, false)) {
                    assertEquals(pointers.get(0), scanner.next().pointer());
                    CorruptionException e = assertThrows(CorruptionException.class, scanner::next,
                            "flip at " + offset + " bit " + bit);
                    assertTrue(e.getMessage().contains(file.toString())
                            && e.getMessage().contains("offset " + recordStart), e.getMessage());
                }
            }
        }
    }

    @Test
    void impossibleLengthsInTheMiddleAreCorruption() throws IOException {
        List<ValuePointer> pointers = writeThree();
        long recordStart = pointers.get(0).offset() + pointers.get(0).length();
        byte[] original = FileCorruptor.readAll(fs, file);
        for (long lengthByte : new long[] {recordStart + 4, recordStart + 5, recordStart + 8}) {
            writeFile(file, original);
            FileCorruptor.flipBit(fs, file, lengthByte, 7);
            try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 7, false)) {
                scanner.next();
                CorruptionException e = assertThrows(CorruptionException.class, scanner::next);
                assertTrue(e.getMessage().contains("impossible lengths"), e.getMessage());
            }
        }
    }

    @Test
    void writerRefusesOversizedKeys() throws IOException {
        try (ValueFileWriter writer = ValueFileWriter.create(fs, dir, 7, WriteLifetime.LONG)) {
            assertThrows(IllegalArgumentException.class,
                    () -> writer.append(new byte[ValueFileFormat.MAX_KEY_LENGTH + 1], new byte[1]));
            writer.append(new byte[ValueFileFormat.MAX_KEY_LENGTH], new byte[1]);
            writer.flush();
        }
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, file, 7, false)) {
            assertEquals(ValueFileFormat.MAX_KEY_LENGTH, scanner.next().key().length);
        }
    }

    @Test
    void headerErrors() throws IOException {
        writeThree();
        byte[] original = FileCorruptor.readAll(fs, file);

        FileCorruptor.flipBit(fs, file, 3, 1);
        CorruptionException badMagic = assertThrows(CorruptionException.class,
                () -> ValueFileReader.open(fs, file, 7));
        assertTrue(badMagic.getMessage().contains(file.toString()), badMagic.getMessage());
        assertThrows(CorruptionException.class, () -> ValueFileScanner.open(fs, file, 7, false));

        writeFile(file, original);
        FileCorruptor.overwrite(fs, file, 8, new byte[] {0, 0, 0, 2});
        IOException newer = assertThrows(IOException.class, () -> ValueFileReader.open(fs, file, 7));
        assertFalse(newer instanceof CorruptionException);
        assertEquals("unsupported value file format version 2 in " + file, newer.getMessage());
        assertThrows(IOException.class, () -> ValueFileScanner.open(fs, file, 7, false));

        writeFile(file, bytes("short"));
        assertThrows(CorruptionException.class, () -> ValueFileReader.open(fs, file, 7));
        assertThrows(CorruptionException.class, () -> ValueFileScanner.open(fs, file, 7, false));
    }

    @Test
    void readerRefusesPointersItCannotServe() throws IOException {
        List<ValuePointer> pointers = writeThree();
        try (ValueFileReader reader = ValueFileReader.open(fs, file, 7)) {
            ValuePointer p = pointers.get(0);
            assertThrows(IllegalArgumentException.class,
                    () -> reader.read(new ValuePointer(8, p.offset(), p.length(), p.crc32c())));
            assertThrows(CorruptionException.class, () -> reader.read(new ValuePointer(7, 4, 3, 0)));
            assertThrows(CorruptionException.class,
                    () -> reader.read(new ValuePointer(7, p.offset() + 1, p.length(), p.crc32c())));
        }
    }

    @Test
    void aFailedWriteMakesTheWriterUnusable() throws IOException {
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(fs);
        try (ValueFileWriter writer = ValueFileWriter.create(faulty, dir, 7, WriteLifetime.LONG)) {
            writer.append(bytes("k"), bytes("v"));
            faulty.inject(FaultRule.on(FsOp.APPEND).once());
            assertThrows(IOException.class, writer::flush);
            IOException later = assertThrows(IOException.class, () -> writer.append(bytes("k2"), bytes("v2")));
            assertTrue(later.getMessage().contains("failed"), later.getMessage());
            assertThrows(IOException.class, writer::sync);
        }
    }

    @Test
    void writesGoToTheFileInLargeChunks() throws IOException {
        CountingFileSystem counting = new CountingFileSystem(fs);
        try (ValueFileWriter writer = ValueFileWriter.create(counting, dir, 7, WriteLifetime.LONG)) {
            for (int i = 0; i < 1000; i++) {
                writer.append(bytes("key" + i), pattern(200, i));
            }
            writer.flush();
            IoCounters counters = counting.snapshot();
            assertEquals(writer.size(), counters.bytesWritten(WriteLifetime.LONG));
            long expectedChunks = 1 + (writer.size() + ValueFileWriter.BUFFER_SIZE - 1) / ValueFileWriter.BUFFER_SIZE;
            assertTrue(counters.writeOps() <= expectedChunks + 1, "write ops " + counters.writeOps());
        }
    }
}
