package dev.cairn.engine.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.MemFileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RecordFileTest {
    private final MemFileSystem fs = new MemFileSystem();
    private final Path path = Path.of("/db/000001.log");

    private List<byte[]> writeRecords(int count, long seed) throws IOException {
        fs.createDirectories(path.getParent());
        Random random = new Random(seed);
        List<byte[]> written = new ArrayList<>();
        try (RecordFile.Writer w = new RecordFile.Writer(fs, path, "TESTFILE", 1, WriteLifetime.SHORT)) {
            for (int i = 0; i < count; i++) {
                byte[] payload = new byte[random.nextInt(300)];
                random.nextBytes(payload);
                w.append(payload);
                written.add(payload);
            }
            w.sync();
        }
        return written;
    }

    @Test
    void recordsReadBackInOrder() throws IOException {
        List<byte[]> written = writeRecords(50, 1);
        RecordFile.Contents contents = RecordFile.read(fs, path, "TESTFILE", 1);
        assertFalse(contents.damagedTail());
        assertEquals(contents.fileBytes(), contents.validBytes());
        assertEquals(written.size(), contents.records().size());
        for (int i = 0; i < written.size(); i++) {
            assertArrayEquals(written.get(i), contents.records().get(i), "record " + i);
        }
    }

    @Test
    void aTornTailEndsTheRecordsBeforeIt() throws IOException {
        List<byte[]> written = writeRecords(10, 2);
        long size = fs.size(path);
        // Drop the last three bytes, as a crash in the middle of the last append would.
        byte[] all;
        try (var f = fs.openRead(path)) {
            all = f.readFully(0, (int) size);
        }
        MemFileSystem cut = new MemFileSystem();
        cut.createDirectories(path.getParent());
        try (var w = cut.create(path, WriteLifetime.SHORT)) {
            w.append(java.nio.ByteBuffer.wrap(all, 0, all.length - 3));
            w.sync();
        }
        RecordFile.Contents contents = RecordFile.read(cut, path, "TESTFILE", 1);
        assertTrue(contents.damagedTail());
        assertEquals(written.size() - 1, contents.records().size());
        assertTrue(contents.validBytes() < contents.fileBytes());
    }

    @Test
    void aFlippedBitIsDamageNotData() throws IOException {
        writeRecords(5, 3);
        fs.flipBitInPlace(path, fs.size(path) - 2, 0);
        RecordFile.Contents contents = RecordFile.read(fs, path, "TESTFILE", 1);
        assertTrue(contents.damagedTail());
        assertEquals(4, contents.records().size());
    }

    @Test
    void aWrongMagicOrNewerVersionIsRefused() throws IOException {
        writeRecords(1, 4);
        assertThrows(CorruptionException.class, () -> RecordFile.read(fs, path, "OTHERMAG", 1));
        fs.delete(path);
        try (RecordFile.Writer w = new RecordFile.Writer(fs, path, "TESTFILE", 2, WriteLifetime.SHORT)) {
            w.append(new byte[] {1});
            w.sync();
        }
        assertThrows(IOException.class, () -> RecordFile.read(fs, path, "TESTFILE", 1));
    }
}
