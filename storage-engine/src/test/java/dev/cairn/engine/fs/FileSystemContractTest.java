package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The {@link FileSystem} contract, run against every implementation by a subclass each. */
abstract class FileSystemContractTest {

    private FileSystem fs;
    private Path dir;

    /** A fresh file system for one test. */
    protected abstract FileSystem newFileSystem() throws IOException;

    /** An existing, empty directory of {@link #newFileSystem()}'s file system. */
    protected abstract Path emptyDirectory(FileSystem fs) throws IOException;

    @BeforeEach
    void setUp() throws IOException {
        fs = newFileSystem();
        dir = emptyDirectory(fs);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private void write(Path path, String content) throws IOException {
        try (WritableFile file = fs.create(path, WriteLifetime.SHORT)) {
            file.append(ByteBuffer.wrap(bytes(content)));
            file.sync();
        }
    }

    private String read(Path path) throws IOException {
        try (ReadableFile file = fs.openRead(path)) {
            return new String(file.readFully(0, (int) file.size()), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aPunchedRangeReadsAsZerosAndTheFileKeepsItsSizeUnlessAnotherNameHoldsIt() throws IOException {
        byte[] data = new byte[5 * 4096 + 100];
        new java.util.Random(5).nextBytes(data);
        Path path = dir.resolve("punched");
        try (WritableFile file = fs.create(path, WriteLifetime.LONG)) {
            file.append(ByteBuffer.wrap(data));
            file.sync();
        }
        Path link = dir.resolve("linked");
        fs.link(path, link);
        assertEquals(0, fs.punchHole(path, 4096, 2 * 4096), "a file with another name is not punched");
        try (ReadableFile file = fs.openRead(path)) {
            assertArrayEquals(data, file.readFully(0, data.length));
        }
        fs.delete(link);

        long freed = fs.punchHole(path, 4096, 2 * 4096);
        byte[] expected = data.clone();
        if (freed > 0) {
            java.util.Arrays.fill(expected, 4096, 3 * 4096, (byte) 0);
            assertTrue(freed <= 2 * 4096, "no more given back than punched: " + freed);
        }
        assertEquals(data.length, fs.size(path), "the size stays");
        try (ReadableFile file = fs.openRead(path)) {
            assertArrayEquals(expected, file.readFully(0, data.length), "zeros in the range, the rest untouched");
        }
    }

    @Test
    void largeHeapBuffersAreWrittenAndReadWholeInOneCall() throws IOException {
        byte[] data = new byte[(1 << 20) + 12345];
        new java.util.Random(11).nextBytes(data);
        Path path = dir.resolve("large");
        try (WritableFile file = fs.create(path, WriteLifetime.MEDIUM)) {
            ByteBuffer source = ByteBuffer.wrap(data, 100, data.length - 100);
            file.append(source);
            assertFalse(source.hasRemaining());
            file.sync();
        }
        try (ReadableFile file = fs.openRead(path)) {
            ByteBuffer whole = ByteBuffer.allocate(data.length - 100);
            assertEquals(data.length - 100, file.read(0, whole));
            assertArrayEquals(java.util.Arrays.copyOfRange(data, 100, data.length), whole.array());
            ByteBuffer pastTheEnd = ByteBuffer.allocate((1 << 20) + 20_000);
            pastTheEnd.position(7);
            assertEquals(data.length - 100 - 5000, file.read(5000, pastTheEnd));
            assertEquals(7 + data.length - 100 - 5000, pastTheEnd.position());
            assertArrayEquals(java.util.Arrays.copyOfRange(data, 5100, data.length),
                    java.util.Arrays.copyOfRange(pastTheEnd.array(), 7, pastTheEnd.position()));
        }
    }

    @Test
    void appendedBytesReadBackAtTheirPositions() throws IOException {
        Path path = dir.resolve("a");
        try (WritableFile file = fs.create(path, WriteLifetime.MEDIUM)) {
            assertEquals(0, file.size());
            file.append(ByteBuffer.wrap(bytes("hello ")));
            assertEquals(6, file.size());
            file.append(bytes("xxworldxx"), 2, 5);
            assertEquals(11, file.size());
            file.sync();
        }
        assertEquals(11, fs.size(path));
        try (ReadableFile file = fs.openRead(path)) {
            assertEquals(11, file.size());
            assertArrayEquals(bytes("world"), file.readFully(6, 5));
            assertArrayEquals(bytes("hello world"), file.readFully(0, 11));
            ByteBuffer tail = ByteBuffer.allocate(10);
            assertEquals(3, file.read(8, tail));
            assertEquals(-1, file.read(11, ByteBuffer.allocate(4)));
            assertThrows(EOFException.class, () -> file.readFully(9, 5));
        }
    }

    @Test
    void readersSeeAppendsBeforeSync() throws IOException {
        Path path = dir.resolve("growing");
        try (WritableFile writer = fs.create(path, WriteLifetime.SHORT);
                ReadableFile reader = fs.openRead(path)) {
            writer.append(ByteBuffer.wrap(bytes("abc")));
            assertEquals(3, reader.size());
            assertArrayEquals(bytes("abc"), reader.readFully(0, 3));
            writer.append(ByteBuffer.wrap(bytes("def")));
            assertArrayEquals(bytes("cdef"), reader.readFully(2, 4));
        }
    }

    @Test
    void createTruncatesAnExistingFile() throws IOException {
        Path path = dir.resolve("f");
        write(path, "long old content");
        write(path, "new");
        assertEquals("new", read(path));
        assertEquals(3, fs.size(path));
    }

    @Test
    void createInMissingDirectoryFails() {
        assertThrows(NoSuchFileException.class, () -> fs.create(dir.resolve("missing/f"), WriteLifetime.NOT_SET));
    }

    @Test
    void missingFilesAreReportedAsSuch() throws IOException {
        Path missing = dir.resolve("missing");
        assertFalse(fs.exists(missing));
        assertThrows(NoSuchFileException.class, () -> fs.openRead(missing));
        assertThrows(NoSuchFileException.class, () -> fs.size(missing));
        assertThrows(NoSuchFileException.class, () -> fs.rename(missing, dir.resolve("other")));
        assertThrows(NoSuchFileException.class, () -> fs.link(missing, dir.resolve("other")));
        assertDoesNotThrow(() -> fs.delete(missing));
    }

    @Test
    void renameMovesAndReplacesTheTarget() throws IOException {
        Path source = dir.resolve("source");
        Path target = dir.resolve("target");
        write(source, "new");
        write(target, "old");
        fs.rename(source, target);
        assertFalse(fs.exists(source));
        assertEquals("new", read(target));
        assertEquals(List.of("target"), fs.list(dir));
    }

    @Test
    void renameAcrossDirectories() throws IOException {
        Path sub = dir.resolve("sub");
        fs.createDirectories(sub);
        write(dir.resolve("f"), "content");
        fs.rename(dir.resolve("f"), sub.resolve("g"));
        assertFalse(fs.exists(dir.resolve("f")));
        assertEquals("content", read(sub.resolve("g")));
    }

    @Test
    void deleteRemovesTheName() throws IOException {
        Path path = dir.resolve("f");
        write(path, "x");
        assertTrue(fs.exists(path));
        fs.delete(path);
        assertFalse(fs.exists(path));
        assertEquals(List.of(), fs.list(dir));
    }

    @Test
    void openReaderKeepsReadingADeletedFile() throws IOException {
        Path path = dir.resolve("f");
        write(path, "still here");
        try (ReadableFile reader = fs.openRead(path)) {
            fs.delete(path);
            assertArrayEquals(bytes("still here"), reader.readFully(0, 10));
        }
    }

    @Test
    void hardLinksShareContent() throws IOException {
        Path original = dir.resolve("original");
        Path link = dir.resolve("link");
        try (WritableFile writer = fs.create(original, WriteLifetime.LONG)) {
            writer.append(ByteBuffer.wrap(bytes("before ")));
            fs.link(original, link);
            writer.append(ByteBuffer.wrap(bytes("after")));
            writer.sync();
        }
        assertEquals("before after", read(link));
        fs.delete(original);
        assertEquals("before after", read(link));
        assertFalse(fs.exists(original));
    }

    @Test
    void linkOverAnExistingNameFails() throws IOException {
        write(dir.resolve("a"), "a");
        write(dir.resolve("b"), "b");
        assertThrows(FileAlreadyExistsException.class, () -> fs.link(dir.resolve("a"), dir.resolve("b")));
        assertEquals("b", read(dir.resolve("b")));
    }

    @Test
    void listNamesFilesAndSubdirectories() throws IOException {
        write(dir.resolve("one"), "1");
        write(dir.resolve("two"), "2");
        fs.createDirectories(dir.resolve("sub/deeper"));
        write(dir.resolve("sub/three"), "3");
        List<String> names = new ArrayList<>(fs.list(dir));
        names.sort(null);
        assertEquals(List.of("one", "sub", "two"), names);
        List<String> subNames = new ArrayList<>(fs.list(dir.resolve("sub")));
        subNames.sort(null);
        assertEquals(List.of("deeper", "three"), subNames);
        assertEquals(List.of(), fs.list(dir.resolve("no-such-directory")));
    }

    @Test
    void createDirectoriesIsIdempotentAndMakesParents() throws IOException {
        Path deep = dir.resolve("a/b/c");
        fs.createDirectories(deep);
        fs.createDirectories(deep);
        assertTrue(fs.exists(dir.resolve("a/b")));
        assertTrue(fs.exists(deep));
        write(deep.resolve("f"), "x");
        fs.syncDirectory(deep);
        assertEquals("x", read(deep.resolve("f")));
    }

    @Test
    void deleteRemovesEmptyDirectoriesOnly() throws IOException {
        Path sub = dir.resolve("sub");
        fs.createDirectories(sub);
        write(sub.resolve("f"), "x");
        assertThrows(DirectoryNotEmptyException.class, () -> fs.delete(sub));
        fs.delete(sub.resolve("f"));
        fs.delete(sub);
        assertFalse(fs.exists(sub));
        assertEquals(List.of(), fs.list(dir));
    }

    @Test
    void lockExcludesASecondLockerUntilReleased() throws Exception {
        Path lockFile = dir.resolve("LOCK");
        AutoCloseable held = fs.lock(lockFile);
        assertTrue(fs.exists(lockFile));
        assertThrows(IOException.class, () -> fs.lock(lockFile));
        held.close();
        try (AutoCloseable again = fs.lock(lockFile)) {
            assertTrue(fs.exists(lockFile));
        }
    }

    @Test
    void closedFilesRefuseIo() throws IOException {
        Path path = dir.resolve("f");
        WritableFile writer = fs.create(path, WriteLifetime.NOT_SET);
        writer.close();
        assertThrows(IOException.class, () -> writer.append(ByteBuffer.wrap(bytes("x"))));
        ReadableFile reader = fs.openRead(path);
        reader.close();
        assertThrows(IOException.class, () -> reader.read(0, ByteBuffer.allocate(1)));
    }

    @Test
    void concurrentPositionalReadsSeeTheirOwnRanges() throws Exception {
        Path path = dir.resolve("shared");
        byte[] content = new byte[64 * 1024];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + (i >> 8));
        }
        try (WritableFile writer = fs.create(path, WriteLifetime.NOT_SET)) {
            writer.append(ByteBuffer.wrap(content));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (ReadableFile reader = fs.openRead(path)) {
            List<Future<?>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        int offset = ((i * 7919 + thread * 104729) % (content.length - 100));
                        byte[] got = reader.readFully(offset, 100);
                        for (int j = 0; j < 100; j++) {
                            assertEquals(content[offset + j], got[j]);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> result : results) {
                result.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
