package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads around the page cache return exactly the bytes an ordinary read does: at unaligned
 * offsets and odd lengths, across the aligned buffer's edges and the longest single read, up to
 * the short last block of a file whose length is not a multiple of the block size, into heap and
 * direct buffers; past the end, as an ordinary read. Where {@code O_DIRECT} is refused (tmpfs),
 * the file system reads the ordinary way.
 */
class DirectReadableFileTest {
    @TempDir
    Path dir;

    private static byte[] write(Path file, int length) throws IOException {
        byte[] bytes = new byte[length];
        new Random(length).nextBytes(bytes);
        Files.write(file, bytes);
        return bytes;
    }

    private static DirectReadableFile openDirect(Path file) throws IOException {
        DirectReadableFile f = DirectReadableFile.openOrNull(file);
        assumeTrue(f != null, "the file system of " + file + " refuses O_DIRECT");
        return f;
    }

    private static void assertReads(ReadableFile f, byte[] expected, long position, int length, boolean direct)
            throws IOException {
        ByteBuffer dst = direct ? ByteBuffer.allocateDirect(length + 3).position(3).slice() : ByteBuffer.allocate(length);
        f.readFully(position, dst);
        dst.flip();
        byte[] got = new byte[length];
        dst.get(got);
        assertArrayEquals(Arrays.copyOfRange(expected, (int) position, (int) position + length), got,
                "at " + position + ", " + length + " bytes");
    }

    @Test
    void unalignedReadsOfAFileWhoseLengthIsNotBlockAligned() throws IOException {
        int length = 3 * DirectReadableFile.MAX_READ_BYTES + 12_345;
        Path file = dir.resolve("values");
        byte[] bytes = write(file, length);
        try (DirectReadableFile f = openDirect(file)) {
            int block = f.alignment();
            assertEquals(length, f.size());
            assertReads(f, bytes, 0, length, false); // several reads of the longest span
            Random r = new Random(1);
            for (int i = 0; i < 300; i++) {
                long position = r.nextInt(length);
                int n = 1 + r.nextInt(Math.min(length - (int) position, i % 3 == 0 ? 3 * block : 3 << 20));
                assertReads(f, bytes, position, n, i % 2 == 0);
            }
            int edge = DirectReadableFile.MAX_READ_BYTES - block;
            assertReads(f, bytes, edge - 1, 2, false);
            assertReads(f, bytes, 1, edge + 1, true);
            assertReads(f, bytes, block - 1, 1, false);
            assertReads(f, bytes, length - 1, 1, false);
            assertReads(f, bytes, length - 12_345, 12_345, true);
            assertReads(f, bytes, length - 3 * block - 7, 3 * block + 7, false);
        }
    }

    @Test
    void pastTheEndReadsAsAnOrdinaryFile() throws IOException {
        Path file = dir.resolve("short");
        byte[] bytes = write(file, 5_000);
        try (DirectReadableFile f = openDirect(file)) {
            ByteBuffer dst = ByteBuffer.allocate(100);
            assertEquals(-1, f.read(5_000, dst));
            assertEquals(-1, f.read(9_000, dst));
            assertEquals(0, dst.position());
            assertEquals(40, f.read(4_960, dst), "a read across the end returns what there is");
            assertArrayEquals(Arrays.copyOfRange(bytes, 4_960, 5_000), Arrays.copyOf(dst.array(), 40));
            assertThrows(EOFException.class, () -> f.readFully(4_990, ByteBuffer.allocate(11)));
            assertEquals(0, f.read(0, ByteBuffer.allocate(0)));
        }
        Path empty = dir.resolve("empty");
        Files.write(empty, new byte[0]);
        try (DirectReadableFile f = openDirect(empty)) {
            assertEquals(-1, f.read(0, ByteBuffer.allocate(10)));
        }
    }

    /** A closed reader's aligned buffer serves the next one: each reads its own file's bytes. */
    @Test
    void readersOneAfterAnotherReadTheirOwnFiles() throws IOException {
        for (int i = 0; i < 6; i++) {
            Path file = dir.resolve("file-" + i);
            byte[] bytes = write(file, 50_000 + 4_099 * i);
            try (DirectReadableFile f = openDirect(file)) {
                assertReads(f, bytes, i, bytes.length - 2 * i, i % 2 == 0);
            }
        }
    }

    @Test
    void theLocalFileSystemReadsDirectWhereItCan() throws IOException {
        Path file = dir.resolve("values");
        byte[] bytes = write(file, 100_001);
        assumeTrue(DirectReadableFile.openOrNull(file) != null, "the file system of " + file + " refuses O_DIRECT");
        try (ReadableFile f = new LocalFileSystem().openReadAroundPageCache(file)) {
            assertInstanceOf(DirectReadableFile.class, f);
            assertReads(f, bytes, 17, 100_001 - 17, false);
        }
        assertThrows(java.nio.file.NoSuchFileException.class,
                () -> new LocalFileSystem().openReadAroundPageCache(dir.resolve("absent")));
    }

    /** A file system that refuses O_DIRECT (EINVAL at open, as tmpfs did before Linux 6.6): the same bytes come through an ordinary read. */
    @Test
    void fallsBackToOrdinaryReadsWhereODirectIsRefused() throws IOException {
        Path file = dir.resolve("values");
        byte[] bytes = write(file, 70_000);
        DirectReadableFile.DirectOpener refusing = p -> {
            throw new java.nio.file.FileSystemException(p.toString(), null, "Invalid argument");
        };
        assertNull(DirectReadableFile.openOrNull(file, refusing));
        try (ReadableFile f = new LocalFileSystem().openReadAroundPageCache(file, refusing)) {
            assertNotNull(f);
            assertFalse(f instanceof DirectReadableFile);
            assertReads(f, bytes, 3, 69_990, false);
        }
    }

    /** On tmpfs, whether the kernel takes O_DIRECT there or not, the bytes read are the file's. */
    @Test
    void readsTheSameOnTmpfs() throws IOException {
        Path shm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(shm) && Files.isWritable(shm) && "tmpfs".equals(Files.getFileStore(shm).type()),
                "no tmpfs at /dev/shm");
        Path d = Files.createTempDirectory(shm, "cairn-direct-test");
        try {
            Path file = d.resolve("values");
            byte[] bytes = write(file, 70_001);
            try (ReadableFile f = new LocalFileSystem().openReadAroundPageCache(file)) {
                assertReads(f, bytes, 0, 70_001, false);
                assertReads(f, bytes, 4_095, 61_000, true);
            }
        } finally {
            try (var walk = Files.walk(d)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
