package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CountingFileSystemTest {

    @Test
    void countsReadsWritesSyncsAndBytesPerLifetime() throws IOException {
        MemFileSystem mem = new MemFileSystem();
        Path dir = Path.of("/db");
        mem.createDirectories(dir);
        CountingFileSystem fs = new CountingFileSystem(mem);

        try (WritableFile log = fs.create(dir.resolve("log"), WriteLifetime.SHORT);
                WritableFile table = fs.create(dir.resolve("table"), WriteLifetime.LONG)) {
            log.append(ByteBuffer.wrap(new byte[10]));
            log.append(ByteBuffer.wrap(new byte[5]));
            log.sync();
            table.append(ByteBuffer.wrap(new byte[100]));
            table.sync();
        }
        fs.syncDirectory(dir);
        IoCounters afterWrites = fs.snapshot();
        assertEquals(3, afterWrites.writeOps());
        assertEquals(115, afterWrites.bytesWritten());
        assertEquals(15, afterWrites.bytesWritten(WriteLifetime.SHORT));
        assertEquals(100, afterWrites.bytesWritten(WriteLifetime.LONG));
        assertEquals(0, afterWrites.bytesWritten(WriteLifetime.MEDIUM));
        assertEquals(2, afterWrites.syncs());
        assertEquals(1, afterWrites.directorySyncs());
        assertEquals(0, afterWrites.readOps());

        try (ReadableFile table = fs.openRead(dir.resolve("table"))) {
            table.readFully(10, 20);
            table.read(90, ByteBuffer.allocate(50));
            table.read(100, ByteBuffer.allocate(1));
        }
        IoCounters reads = fs.snapshot().minus(afterWrites);
        assertEquals(3, reads.readOps(), "readFully of 20 bytes in memory is one read, plus two reads");
        assertEquals(30, reads.bytesRead());
        assertEquals(0, reads.bytesWritten());
        assertEquals(0, reads.bytesWritten(WriteLifetime.SHORT));
    }

    @Test
    void failedAppendsCountWhatReachedTheDevice() throws IOException {
        MemFileSystem mem = new MemFileSystem();
        Path dir = Path.of("/db");
        mem.createDirectories(dir);
        FaultInjectingFileSystem faulty = new FaultInjectingFileSystem(mem);
        faulty.inject(FaultRule.on(FsOp.APPEND).tornWrites().always());
        CountingFileSystem fs = new CountingFileSystem(faulty);
        try (WritableFile file = fs.create(dir.resolve("f"), WriteLifetime.MEDIUM)) {
            try {
                file.append(ByteBuffer.wrap(new byte[8]));
            } catch (IOException expected) {
                // the torn half still reached the device
            }
        }
        assertEquals(4, fs.snapshot().bytesWritten(WriteLifetime.MEDIUM));
    }
}
