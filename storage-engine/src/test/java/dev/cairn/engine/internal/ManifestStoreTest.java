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
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ManifestStoreTest {
    private final MemFileSystem fs = new MemFileSystem();
    private final Path dir = Path.of("/db");

    private static ManifestState sample() {
        List<List<FileMeta>> levels = new ArrayList<>(ManifestState.empty().levels());
        levels.set(0, List.of(new FileMeta(12, 4096, 10, new byte[] {0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 1},
                new byte[] {0, 1, 'z', 0, 0, 0, 0, 0, 0, 0, 1})));
        return ManifestState.empty().withTable("objects", 1).withTable("blobs", 2).withLevels(List.copyOf(levels))
                .withLog(9, 1234).withValueFiles(Map.of(5L, 100L, 7L, 0L)).withNextFileNumber(20);
    }

    @Test
    void writesAndReadsTheState() throws IOException {
        fs.createDirectories(dir);
        ManifestStore store = new ManifestStore(fs, dir);
        assertFalse(store.exists());
        store.write(sample(), 19);
        assertTrue(store.exists());
        ManifestState read = new ManifestStore(fs, dir).read();
        assertArrayEquals(sample().encode(), read.encode());
    }

    @Test
    void aNewManifestReplacesAndDeletesTheOld() throws IOException {
        fs.createDirectories(dir);
        ManifestStore store = new ManifestStore(fs, dir);
        store.write(sample(), 19);
        ManifestState next = sample().withLog(10, 2000).withNextFileNumber(22);
        store.write(next, 21);
        assertFalse(fs.exists(FileNames.manifest(dir, 19)));
        ManifestStore reader = new ManifestStore(fs, dir);
        assertArrayEquals(next.encode(), reader.read().encode());
        assertEquals(21, reader.currentNumber());
    }

    @Test
    void aCrashBeforeTheRenameLeavesTheOldState() throws IOException {
        fs.createDirectories(dir);
        ManifestStore store = new ManifestStore(fs, dir);
        store.write(sample(), 19);
        MemFileSystem crashed = fs.crashClone();
        // The new manifest is written, CURRENT not yet replaced.
        try (RecordFile.Writer w = new RecordFile.Writer(crashed, FileNames.manifest(dir, 21), ManifestStore.MAGIC,
                ManifestStore.FORMAT_VERSION, WriteLifetime.SHORT)) {
            w.append(sample().withLog(10, 2000).encode());
            w.sync();
        }
        assertArrayEquals(sample().encode(), new ManifestStore(crashed, dir).read().encode());
    }

    @Test
    void aMalformedCurrentIsCorruption() throws IOException {
        fs.createDirectories(dir);
        new ManifestStore(fs, dir).write(sample(), 19);
        fs.delete(dir.resolve(FileNames.CURRENT));
        try (var f = fs.create(dir.resolve(FileNames.CURRENT), WriteLifetime.SHORT)) {
            f.append(ByteBuffer.wrap("000019.log\n".getBytes(StandardCharsets.UTF_8)));
            f.sync();
        }
        assertThrows(CorruptionException.class, () -> new ManifestStore(fs, dir).read());
    }
}
