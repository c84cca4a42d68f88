package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.engine.fs.LocalFileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IoCountingFileSystemTest {

    @TempDir
    Path dir;

    @Test
    void countsAppendsSyncsAndReads() throws IOException {
        IoCountingFileSystem fs = new IoCountingFileSystem(new LocalFileSystem());
        Path file = dir.resolve("f");
        try (WritableFile out = fs.create(file, WriteLifetime.SHORT)) {
            out.append(new byte[100], 0, 100);
            out.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            out.sync();
        }
        IoCountingFileSystem.Counts afterWrite = fs.snapshot();
        assertEquals(new IoCountingFileSystem.Counts(103, 2, 1, 0, 0), afterWrite);

        try (ReadableFile in = fs.openRead(file)) {
            assertArrayEquals(new byte[] {1, 2, 3}, in.readFully(100, 3));
            ByteBuffer past = ByteBuffer.allocate(10);
            assertEquals(-1, in.read(103, past));
        }
        IoCountingFileSystem.Counts reads = fs.snapshot().minus(afterWrite);
        assertEquals(new IoCountingFileSystem.Counts(0, 0, 0, 2, 3), reads);
        assertEquals(103, fs.size(file));
    }
}
