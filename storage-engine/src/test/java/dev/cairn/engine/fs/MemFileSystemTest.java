package dev.cairn.engine.fs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The crash model of {@link MemFileSystem}; the shared contract is in its contract test. */
class MemFileSystemTest {

    private final Path dir = Path.of("/db");
    private MemFileSystem fs;

    @BeforeEach
    void setUp() throws IOException {
        fs = new MemFileSystem();
        fs.createDirectories(dir);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void append(WritableFile file, String s) throws IOException {
        file.append(ByteBuffer.wrap(bytes(s)));
    }

    private static String read(FileSystem fs, Path path) throws IOException {
        return new String(FileCorruptor.readAll(fs, path), StandardCharsets.UTF_8);
    }

    /** Creates, writes and syncs a file and its directory entry. */
    private void durable(String name, String content) throws IOException {
        try (WritableFile file = fs.create(dir.resolve(name), WriteLifetime.NOT_SET)) {
            append(file, content);
            file.sync();
        }
        fs.syncDirectory(dir);
    }

    /** Creates a file with a durable name, syncs {@code synced} into it, appends {@code unsynced}. */
    private WritableFile halfSynced(Path path, String synced, String unsynced) throws IOException {
        WritableFile file = fs.create(path, WriteLifetime.NOT_SET);
        fs.syncDirectory(dir);
        append(file, synced);
        file.sync();
        append(file, unsynced);
        return file;
    }

    @Test
    void onlySyncedBytesSurvive() throws IOException {
        Path path = dir.resolve("log");
        WritableFile file = halfSynced(path, "synced ", "lost");
        assertEquals("synced lost", read(fs, path));

        MemFileSystem crashed = fs.crashClone();
        assertEquals("synced ", read(crashed, path));
        assertEquals(7, crashed.size(path));
        file.close();
    }

    @Test
    void createdFileWithoutDirectorySyncVanishes() throws IOException {
        try (WritableFile file = fs.create(dir.resolve("new"), WriteLifetime.NOT_SET)) {
            append(file, "data");
            file.sync();
        }
        MemFileSystem crashed = fs.crashClone();
        assertFalse(crashed.exists(dir.resolve("new")));
        assertEquals(List.of(), crashed.list(dir));
        assertTrue(crashed.exists(dir));
    }

    @Test
    void directorySyncWithoutDataSyncKeepsAnEmptyFile() throws IOException {
        try (WritableFile file = fs.create(dir.resolve("new"), WriteLifetime.NOT_SET)) {
            append(file, "data");
            fs.syncDirectory(dir);
        }
        MemFileSystem crashed = fs.crashClone();
        assertTrue(crashed.exists(dir.resolve("new")));
        assertEquals(0, crashed.size(dir.resolve("new")));
    }

    @Test
    void unsyncedRenameReverts() throws IOException {
        durable("CURRENT", "old");
        durable("CURRENT.tmp", "new");
        fs.rename(dir.resolve("CURRENT.tmp"), dir.resolve("CURRENT"));
        assertEquals("new", read(fs, dir.resolve("CURRENT")));

        MemFileSystem crashed = fs.crashClone();
        assertEquals("old", read(crashed, dir.resolve("CURRENT")));
        assertEquals("new", read(crashed, dir.resolve("CURRENT.tmp")));

        fs.syncDirectory(dir);
        MemFileSystem afterSync = fs.crashClone();
        assertEquals("new", read(afterSync, dir.resolve("CURRENT")));
        assertFalse(afterSync.exists(dir.resolve("CURRENT.tmp")));
    }

    @Test
    void unsyncedDeleteReappears() throws IOException {
        durable("f", "content");
        fs.delete(dir.resolve("f"));
        assertFalse(fs.exists(dir.resolve("f")));
        assertEquals("content", read(fs.crashClone(), dir.resolve("f")));

        fs.syncDirectory(dir);
        assertFalse(fs.crashClone().exists(dir.resolve("f")));
    }

    @Test
    void unsyncedLinkVanishesAndSyncedLinkSharesTheInode() throws IOException {
        durable("f", "content");
        fs.link(dir.resolve("f"), dir.resolve("g"));
        assertFalse(fs.crashClone().exists(dir.resolve("g")));

        fs.syncDirectory(dir);
        MemFileSystem crashed = fs.crashClone();
        assertEquals("content", read(crashed, dir.resolve("g")));
        try (WritableFile truncating = crashed.create(dir.resolve("f"), WriteLifetime.NOT_SET)) {
            append(truncating, "x");
        }
        assertEquals("x", read(crashed, dir.resolve("g")), "the clone keeps f and g one inode");
    }

    @Test
    void renameBetweenDirectoriesNeedsBothSynced() throws IOException {
        Path other = Path.of("/archive");
        fs.createDirectories(other);
        durable("f", "content");
        fs.rename(dir.resolve("f"), other.resolve("f"));

        MemFileSystem neither = fs.crashClone();
        assertTrue(neither.exists(dir.resolve("f")));
        assertFalse(neither.exists(other.resolve("f")));

        fs.syncDirectory(other);
        MemFileSystem targetOnly = fs.crashClone();
        assertTrue(targetOnly.exists(dir.resolve("f")));
        assertTrue(targetOnly.exists(other.resolve("f")));

        fs.syncDirectory(dir);
        MemFileSystem both = fs.crashClone();
        assertFalse(both.exists(dir.resolve("f")));
        assertEquals("content", read(both, other.resolve("f")));
    }

    @Test
    void truncationByCreateIsDurableAtOnce() throws IOException {
        durable("f", "old content");
        WritableFile file = fs.create(dir.resolve("f"), WriteLifetime.NOT_SET);
        append(file, "unsynced");
        assertEquals(0, fs.crashClone().size(dir.resolve("f")));
        file.close();
    }

    @Test
    void directoriesAreDurableOnceCreated() throws IOException {
        fs.createDirectories(Path.of("/a/b/c"));
        MemFileSystem crashed = fs.crashClone();
        assertTrue(crashed.exists(Path.of("/a/b/c")));
        assertEquals(List.of("b"), crashed.list(Path.of("/a")));
    }

    @Test
    void cloneIsIndependentOfTheOriginal() throws IOException {
        durable("f", "one");
        MemFileSystem crashed = fs.crashClone();
        durable("f", "two");
        try (WritableFile file = crashed.create(dir.resolve("g"), WriteLifetime.NOT_SET)) {
            append(file, "clone only");
        }
        assertEquals("one", read(crashed, dir.resolve("f")));
        assertEquals("two", read(fs, dir.resolve("f")));
        assertFalse(fs.exists(dir.resolve("g")));
    }

    @Test
    void openFilesOfTheOriginalDoNotWriteIntoTheClone() throws IOException {
        WritableFile file = fs.create(dir.resolve("f"), WriteLifetime.NOT_SET);
        fs.syncDirectory(dir);
        append(file, "a");
        file.sync();
        MemFileSystem crashed = fs.crashClone();
        append(file, "b");
        file.sync();
        assertEquals("a", read(crashed, dir.resolve("f")));
        file.close();
    }

    @Test
    void crashOfAClonedCloneKeepsOnlyItsOwnDurableState() throws IOException {
        durable("f", "durable");
        MemFileSystem first = fs.crashClone();
        try (WritableFile file = first.create(dir.resolve("g"), WriteLifetime.NOT_SET)) {
            append(file, "never synced dir");
            file.sync();
        }
        MemFileSystem second = first.crashClone();
        assertEquals(List.of("f"), second.list(dir));
    }

    @Test
    void locksBelongToOneInstance() throws Exception {
        Path lockFile = dir.resolve("LOCK");
        try (AutoCloseable held = fs.lock(lockFile)) {
            assertThrows(IOException.class, () -> fs.lock(lockFile));
            MemFileSystem other = new MemFileSystem();
            other.createDirectories(dir);
            other.lock(lockFile).close();
            fs.syncDirectory(dir);
            fs.crashClone().lock(lockFile).close();
        }
    }

    @Test
    void randomCrashKeepsAPrefixOfUnsyncedBytes() throws IOException {
        long seed = TestSeeds.seed("randomCrashKeepsAPrefixOfUnsyncedBytes");
        Random random = new Random(seed);
        String synced = "synced-";
        String unsynced = "0123456789";
        Path path = dir.resolve("f");
        WritableFile file = halfSynced(path, synced, unsynced);
        Set<Integer> lengthsSeen = new HashSet<>();
        for (int i = 0; i < 400; i++) {
            String kept = read(fs.crashClone(random), path);
            assertTrue((synced + unsynced).startsWith(kept), "seed=" + seed + " kept=" + kept);
            assertTrue(kept.length() >= synced.length(), "seed=" + seed + " kept=" + kept);
            lengthsSeen.add(kept.length());
        }
        assertEquals(unsynced.length() + 1, lengthsSeen.size(), "seed=" + seed + " every prefix length occurs");
        file.close();
    }

    @Test
    void garbageCrashKeepsSyncedBytesAndGarblesOnlyTheTornTail() throws IOException {
        long seed = TestSeeds.seed("garbageCrashKeepsSyncedBytesAndGarblesOnlyTheTornTail");
        Random random = new Random(seed);
        String synced = "synced-";
        String unsynced = "0".repeat(64);
        Path path = dir.resolve("f");
        WritableFile file = halfSynced(path, synced, unsynced);
        boolean garbled = false;
        for (int i = 0; i < 100; i++) {
            String kept = read(fs.crashClone(random, true), path);
            assertTrue(kept.startsWith(synced), "seed=" + seed + " kept=" + kept);
            assertTrue(kept.length() <= synced.length() + unsynced.length(), "seed=" + seed + " kept=" + kept);
            garbled |= !unsynced.startsWith(kept.substring(synced.length()));
        }
        assertTrue(garbled, "seed=" + seed + " some torn tail holds garbage");
        assertThrows(IllegalArgumentException.class, () -> fs.crashClone(null, true));
        file.close();
    }

    @Test
    void bitFlipInPlaceIsSeenByOpenReadersAndSurvivesACrashOnlyIfSynced() throws IOException {
        Path path = dir.resolve("f");
        WritableFile file = halfSynced(path, "ab", "c");
        try (ReadableFile reader = fs.openRead(path)) {
            fs.flipBitInPlace(path, 0, 0);
            fs.flipBitInPlace(path, 2, 0);
            assertEquals("`bb", new String(reader.readFully(0, 3), StandardCharsets.UTF_8));
        }
        assertEquals("`b", read(fs.crashClone(), path));
        assertThrows(IllegalArgumentException.class, () -> fs.flipBitInPlace(path, 3, 0));
        assertThrows(IllegalArgumentException.class, () -> fs.flipBitInPlace(path, 0, 8));
        file.close();
    }

    @Test
    void randomCrashAppliesAPrefixOfDirectoryChangesInOrder() throws IOException {
        long seed = TestSeeds.seed("randomCrashAppliesAPrefixOfDirectoryChangesInOrder");
        Random random = new Random(seed);
        durable("a", "A");
        // Changes, in order: create b; rename b -> c; delete a; link c -> d.
        try (WritableFile file = fs.create(dir.resolve("b"), WriteLifetime.NOT_SET)) {
            append(file, "B");
            file.sync();
        }
        fs.rename(dir.resolve("b"), dir.resolve("c"));
        fs.delete(dir.resolve("a"));
        fs.link(dir.resolve("c"), dir.resolve("d"));
        List<List<String>> prefixes = List.of(
                List.of("a"), List.of("a", "b"), List.of("a", "c"), List.of("c"), List.of("c", "d"));
        Set<List<String>> seen = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            List<String> names = new ArrayList<>(fs.crashClone(random).list(dir));
            names.sort(null);
            assertTrue(prefixes.contains(names), "seed=" + seed + " not a prefix of the changes: " + names);
            seen.add(names);
        }
        assertEquals(prefixes.size(), seen.size(), "seed=" + seed + " every prefix occurs");
    }

    @Test
    void concurrentWritersAndCrashClonesStayConsistent() throws Exception {
        int writers = 3;
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < writers; t++) {
            Path path = dir.resolve("w" + t);
            threads.add(new Thread(() -> {
                try (WritableFile file = fs.create(path, WriteLifetime.NOT_SET)) {
                    for (int i = 0; i < 500; i++) {
                        file.append(ByteBuffer.wrap(new byte[] {(byte) i}));
                        if (i % 10 == 9) {
                            file.sync();
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (int i = 0; i < 50; i++) {
            fs.syncDirectory(dir);
            MemFileSystem crashed = fs.crashClone();
            for (String name : crashed.list(dir)) {
                byte[] content = FileCorruptor.readAll(crashed, dir.resolve(name));
                assertEquals(0, content.length % 10, "only whole synced groups survive");
                for (int j = 0; j < content.length; j++) {
                    assertEquals((byte) j, content[j]);
                }
            }
        }
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        assertEquals(List.of(), failures);
        fs.syncDirectory(dir);
        for (int t = 0; t < writers; t++) {
            assertArrayEquals(FileCorruptor.readAll(fs, dir.resolve("w" + t)),
                    FileCorruptor.readAll(fs.crashClone(), dir.resolve("w" + t)));
        }
    }
}
