package dev.cairn.engine.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A log kept ahead of its records in zeros, on the real file system. */
class ZeroFilledLogTest {
    private static final long AHEAD = 64 << 10;

    @TempDir
    Path dir;

    private final LocalFileSystem fs = new LocalFileSystem();

    private List<byte[]> append(RecordFile.Writer w, int count, long seed) throws IOException {
        Random random = new Random(seed);
        List<byte[]> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] payload = new byte[1 + random.nextInt(3000)];
            random.nextBytes(payload);
            w.append(payload);
            written.add(payload);
        }
        w.sync();
        return written;
    }

    @Test
    void zerosAfterTheLastRecordAreItsEndNotDamage() throws IOException {
        Path path = dir.resolve("000001.log");
        RecordFile.Writer w = new RecordFile.Writer(fs, path, "TESTFILE", 1, WriteLifetime.SHORT, AHEAD);
        try {
            // Past several fills of AHEAD bytes, as a process killed while writing would leave it.
            List<byte[]> written = append(w, 100, 1);
            assertTrue(Files.size(path) > w.size(), "zeros are written ahead of the records");
            RecordFile.Contents contents = RecordFile.read(fs, path, "TESTFILE", 1);
            assertFalse(contents.damagedTail());
            assertEquals(w.size(), contents.validBytes());
            assertEquals(written.size(), contents.records().size());
            for (int i = 0; i < written.size(); i++) {
                assertArrayEquals(written.get(i), contents.records().get(i), "record " + i);
            }
        } finally {
            w.close();
        }
    }

    @Test
    void closingCutsTheUnusedZeros() throws IOException {
        Path path = dir.resolve("000002.log");
        long size;
        try (RecordFile.Writer w = new RecordFile.Writer(fs, path, "TESTFILE", 1, WriteLifetime.SHORT, AHEAD)) {
            append(w, 10, 2);
            size = w.size();
        }
        assertEquals(size, Files.size(path));
        assertFalse(RecordFile.read(fs, path, "TESTFILE", 1).damagedTail());
    }

    @Test
    void aTornRecordBeforeTheZerosIsStillDamage() throws IOException {
        Path path = dir.resolve("000003.log");
        RecordFile.Writer w = new RecordFile.Writer(fs, path, "TESTFILE", 1, WriteLifetime.SHORT, AHEAD);
        long lastStart;
        try {
            append(w, 5, 3);
            lastStart = w.size();
            append(w, 1, 4);
            // A crash that kept the last record's header but not the end of its payload.
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.allocate((int) (w.size() - lastStart - 12)), lastStart + 12);
            }
            RecordFile.Contents contents = RecordFile.read(fs, path, "TESTFILE", 1);
            assertTrue(contents.damagedTail());
            assertEquals(5, contents.records().size());
            assertEquals(lastStart, contents.validBytes());
        } finally {
            w.close();
        }
    }

    @Test
    void anyByteInTheZerosIsDamage() throws IOException {
        Path path = dir.resolve("000004.log");
        RecordFile.Writer w = new RecordFile.Writer(fs, path, "TESTFILE", 1, WriteLifetime.SHORT, AHEAD);
        try {
            append(w, 5, 5);
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {1}), w.size() + AHEAD / 2);
            }
            RecordFile.Contents contents = RecordFile.read(fs, path, "TESTFILE", 1);
            assertTrue(contents.damagedTail());
            assertEquals(5, contents.records().size());
        } finally {
            w.close();
        }
    }
}
