package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FileCorruptorTest {

    private final Path file = Path.of("/d/file");
    private final byte[] original = {0x00, 0x11, 0x22, 0x33, 0x44};
    private MemFileSystem fs;

    @BeforeEach
    void setUp() throws IOException {
        fs = new MemFileSystem();
        fs.createDirectories(file.getParent());
        try (WritableFile out = fs.create(file, WriteLifetime.NOT_SET)) {
            out.append(ByteBuffer.wrap(original));
            out.sync();
        }
        fs.syncDirectory(file.getParent());
    }

    @Test
    void flipBitChangesExactlyOneBitDurably() throws IOException {
        FileCorruptor.flipBit(fs, file, 2, 7);
        byte[] expected = original.clone();
        expected[2] = (byte) 0xA2;
        assertArrayEquals(expected, FileCorruptor.readAll(fs, file));
        assertArrayEquals(expected, FileCorruptor.readAll(fs.crashClone(), file));
        assertEquals(1, fs.list(file.getParent()).size(), "no temporary file left behind");
    }

    @Test
    void overwriteAndTruncate() throws IOException {
        FileCorruptor.overwrite(fs, file, 3, new byte[] {9, 9});
        assertArrayEquals(new byte[] {0x00, 0x11, 0x22, 9, 9}, FileCorruptor.readAll(fs, file));
        FileCorruptor.truncate(fs, file, 2);
        assertArrayEquals(new byte[] {0x00, 0x11}, FileCorruptor.readAll(fs.crashClone(), file));
    }

    @Test
    void refusesOffsetsOutsideTheFile() {
        assertThrows(IllegalArgumentException.class, () -> FileCorruptor.flipBit(fs, file, 5, 0));
        assertThrows(IllegalArgumentException.class, () -> FileCorruptor.flipBit(fs, file, 0, 8));
        assertThrows(IllegalArgumentException.class, () -> FileCorruptor.overwrite(fs, file, 4, new byte[2]));
        assertThrows(IllegalArgumentException.class, () -> FileCorruptor.truncate(fs, file, 6));
    }
}
