package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * A file system held in memory that remembers what a power loss would keep, after Pebble's
 * {@code vfs.MemFS}. Tests run the engine on it, call {@link #crashClone()} at any moment and
 * reopen the engine on the clone.
 *
 * <p>The durability model:
 * <ul>
 *   <li>A file is an inode; its names are entries in directories. {@link #link} adds a second
 *       name for the same inode, so both names share content.
 *   <li>An inode's bytes up to its last {@link WritableFile#sync()} are durable; bytes appended
 *       after it are visible to readers at once but are lost by a crash.
 *       {@link #create} over an existing name truncates that inode (as {@code O_TRUNC} does), and
 *       the truncation counts as durable at once: the pessimistic choice, since it loses the old
 *       bytes.
 *   <li>Each directory keeps the entries as they were at its last {@link #syncDirectory} and
 *       the changes made since, in order. Create, rename, delete and link change the directory
 *       at once for every caller, but only a sync of the directory makes the changes survive a
 *       crash. A file created in an unsynced directory vanishes, an unsynced rename reverts, an
 *       unsynced delete reappears. A rename between two directories is two changes, one in each.
 *   <li>Directories themselves, once made by {@link #createDirectories}, are durable, and so is
 *       the deletion of an empty one: the engine's directories are made once, before any file
 *       that matters.
 *   <li>{@link #crashClone()} keeps exactly the durable state. {@link #crashClone(Random)} is the
 *       looser, more realistic model: each file additionally keeps a random prefix of its
 *       unsynced bytes (a torn tail), and each directory a random prefix of its unsynced changes
 *       (metadata reaches the disk in the order it was made, as a journaling file system does).
 *       {@link #crashClone(Random, boolean)} can also fill part of those torn tails with garbage.
 * </ul>
 *
 * <p>{@link #lock} excludes other lockers of the same path on the same instance only.
 *
 * <p>Thread-safe: directory state is guarded by this object's monitor, each inode's bytes by the
 * inode's monitor (always taken after this object's, never before).
 */
public final class MemFileSystem implements FileSystem {

    private static final int PUNCH_BLOCK = 4096;

    private final Map<Path, Directory> directories = new HashMap<>();
    private final Set<Path> locked = new HashSet<>();

    public MemFileSystem() {
        Path root = Path.of("").toAbsolutePath().getRoot();
        directories.put(root, new Directory());
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        Path file = normalize(path);
        synchronized (this) {
            Directory parent = parentOf(file);
            Inode existing = parent.live.get(name(file));
            if (existing != null) {
                existing.truncate();
                return new MemWritableFile(existing, file);
            }
            if (directories.containsKey(file)) {
                throw new IOException("is a directory: " + file);
            }
            Inode inode = new Inode();
            parent.change(name(file), inode);
            return new MemWritableFile(inode, file);
        }
    }

    @Override
    public synchronized ReadableFile openRead(Path path) throws IOException {
        Path file = normalize(path);
        return new MemReadableFile(existingFile(file), file);
    }

    @Override
    public synchronized void rename(Path source, Path target) throws IOException {
        Path from = normalize(source);
        Path to = normalize(target);
        Inode inode = existingFile(from);
        if (from.equals(to)) {
            return;
        }
        Directory fromDir = parentOf(from);
        Directory toDir = parentOf(to);
        if (fromDir == toDir) {
            fromDir.change(List.of(new Change(name(to), inode), new Change(name(from), null)));
        } else {
            toDir.change(name(to), inode);
            fromDir.change(name(from), null);
        }
    }

    @Override
    public synchronized void delete(Path path) throws IOException {
        Path file = normalize(path);
        Directory directory = directories.get(file);
        if (directory != null) {
            if (!list(file).isEmpty()) {
                throw new DirectoryNotEmptyException(file.toString());
            }
            directories.remove(file);
            return;
        }
        Directory parent = directories.get(file.getParent());
        if (parent != null && parent.live.containsKey(name(file))) {
            parent.change(name(file), null);
        }
    }

    @Override
    public synchronized void link(Path existing, Path link) throws IOException {
        Path from = normalize(existing);
        Path to = normalize(link);
        Inode inode = existingFile(from);
        Directory toDir = parentOf(to);
        if (toDir.live.containsKey(name(to)) || directories.containsKey(to)) {
            throw new FileAlreadyExistsException(to.toString());
        }
        toDir.change(name(to), inode);
    }

    /**
     * Zeros the range; the bytes given back are those of the whole {@value #PUNCH_BLOCK}-byte
     * blocks in it not punched before, as a file system with blocks of that size counts them.
     */
    @Override
    public synchronized long punchHole(Path path, long offset, long length) throws IOException {
        Inode inode = existingFile(normalize(path));
        int names = 0;
        for (Directory d : directories.values()) {
            for (Inode i : d.live.values()) {
                names += i == inode ? 1 : 0;
            }
        }
        return names == 1 ? inode.punch(offset, length) : 0;
    }

    @Override
    public synchronized boolean exists(Path path) {
        Path file = normalize(path);
        if (directories.containsKey(file)) {
            return true;
        }
        Directory parent = directories.get(file.getParent());
        return parent != null && parent.live.containsKey(name(file));
    }

    @Override
    public synchronized long size(Path path) throws IOException {
        return existingFile(normalize(path)).size();
    }

    @Override
    public synchronized List<String> list(Path directory) {
        Path dir = normalize(directory);
        Directory entries = directories.get(dir);
        if (entries == null) {
            return List.of();
        }
        List<String> names = new ArrayList<>(entries.live.keySet());
        for (Path other : directories.keySet()) {
            if (dir.equals(other.getParent())) {
                names.add(name(other));
            }
        }
        return names;
    }

    @Override
    public synchronized void createDirectories(Path directory) throws IOException {
        Path dir = normalize(directory);
        List<Path> missing = new ArrayList<>();
        for (Path p = dir; p != null && !directories.containsKey(p); p = p.getParent()) {
            Directory parent = p.getParent() == null ? null : directories.get(p.getParent());
            if (parent != null && parent.live.containsKey(name(p))) {
                throw new FileAlreadyExistsException(p.toString(), null, "a file, not a directory");
            }
            missing.add(p);
        }
        for (Path p : missing) {
            directories.put(p, new Directory());
        }
    }

    @Override
    public synchronized void syncDirectory(Path directory) throws IOException {
        Path dir = normalize(directory);
        Directory entries = directories.get(dir);
        if (entries == null) {
            throw new NoSuchFileException(dir.toString());
        }
        entries.sync();
    }

    @Override
    public AutoCloseable lock(Path path) throws IOException {
        Path file = normalize(path);
        synchronized (this) {
            Directory parent = parentOf(file);
            if (!locked.add(file)) {
                throw new IOException("another process holds the lock " + file);
            }
            if (!parent.live.containsKey(name(file))) {
                parent.change(name(file), new Inode());
            }
        }
        return new AutoCloseable() {
            private boolean released;

            @Override
            public void close() {
                synchronized (MemFileSystem.this) {
                    if (!released) {
                        released = true;
                        locked.remove(file);
                    }
                }
            }
        };
    }

    /** A new file system holding only what is durable now: what survives a power loss. */
    public MemFileSystem crashClone() {
        return crashClone(null);
    }

    /**
     * A new file system as after a power loss where, beyond the durable state, a random prefix of
     * each file's unsynced bytes and of each directory's unsynced changes happened to reach the
     * disk. With {@code random == null} nothing beyond the durable state survives.
     */
    public MemFileSystem crashClone(Random random) {
        return crashClone(random, false);
    }

    /**
     * As {@link #crashClone(Random)}; with {@code garbage}, about one in eight of the unsynced bytes
     * that reached the disk holds a random value instead, as a write torn mid-sector leaves it.
     */
    public synchronized MemFileSystem crashClone(Random random, boolean garbage) {
        if (garbage && random == null) {
            throw new IllegalArgumentException("garbage needs a random source");
        }
        MemFileSystem clone = new MemFileSystem();
        Map<Inode, Inode> copies = new IdentityHashMap<>();
        for (Map.Entry<Path, Directory> e : directories.entrySet()) {
            Directory survivor = new Directory();
            for (Map.Entry<String, Inode> entry : e.getValue().afterCrash(random).entrySet()) {
                Inode copy = copies.computeIfAbsent(entry.getValue(), inode -> inode.afterCrash(random, garbage));
                survivor.durable.put(entry.getKey(), copy);
                survivor.live.put(entry.getKey(), copy);
            }
            clone.directories.put(e.getKey(), survivor);
        }
        return clone;
    }

    /**
     * Inverts bit {@code bit} of the byte at {@code byteOffset} in place, as rot on the device
     * does: open readers see it and the file keeps its inode, unlike the tests' file corruptor,
     * which writes a new file. Whether the change survives a crash follows the byte's own durability.
     */
    public synchronized void flipBitInPlace(Path path, long byteOffset, int bit) throws IOException {
        if (bit < 0 || bit > 7) {
            throw new IllegalArgumentException("bit must be in [0, 7]: " + bit);
        }
        existingFile(normalize(path)).flipBit(byteOffset, bit);
    }

    private Inode existingFile(Path file) throws NoSuchFileException {
        Directory parent = directories.get(file.getParent());
        Inode inode = parent == null ? null : parent.live.get(name(file));
        if (inode == null) {
            throw new NoSuchFileException(file.toString());
        }
        return inode;
    }

    private Directory parentOf(Path file) throws NoSuchFileException {
        Directory parent = file.getParent() == null ? null : directories.get(file.getParent());
        if (parent == null) {
            throw new NoSuchFileException(file.toString(), null, "parent directory does not exist");
        }
        return parent;
    }

    private static Path normalize(Path path) {
        return path.toAbsolutePath().normalize();
    }

    private static String name(Path path) {
        return path.getFileName().toString();
    }

    /** One entry change: {@code inode == null} removes the name. */
    private record Change(String name, Inode inode) {
    }

    /** REQUIRES: all access holds the file system's monitor. */
    private static final class Directory {
        final Map<String, Inode> durable = new HashMap<>();
        final Map<String, Inode> live = new HashMap<>();
        /** Changes since the last sync, each list applied atomically, in order. */
        final List<List<Change>> pending = new ArrayList<>();

        void change(String name, Inode inode) {
            change(List.of(new Change(name, inode)));
        }

        void change(List<Change> changes) {
            apply(live, changes);
            pending.add(changes);
        }

        void sync() {
            durable.clear();
            durable.putAll(live);
            pending.clear();
        }

        Map<String, Inode> afterCrash(Random random) {
            Map<String, Inode> survivors = new HashMap<>(durable);
            int applied = random == null ? 0 : random.nextInt(pending.size() + 1);
            for (int i = 0; i < applied; i++) {
                apply(survivors, pending.get(i));
            }
            return survivors;
        }

        private static void apply(Map<String, Inode> entries, List<Change> changes) {
            for (Change c : changes) {
                if (c.inode() == null) {
                    entries.remove(c.name());
                } else {
                    entries.put(c.name(), c.inode());
                }
            }
        }
    }

    /** A file's bytes. Thread-safe through its own monitor. */
    private static final class Inode {
        private byte[] data = new byte[0];
        private int length;
        private int syncedLength;
        private final BitSet punchedBlocks = new BitSet();

        synchronized long punch(long offset, long count) {
            long from = Math.max(0, offset);
            long to = Math.min(length, offset + count);
            if (from >= to) {
                return 0;
            }
            Arrays.fill(data, (int) from, (int) to, (byte) 0);
            long freed = 0;
            for (long block = (from + PUNCH_BLOCK - 1) / PUNCH_BLOCK; (block + 1) * PUNCH_BLOCK <= to; block++) {
                if (!punchedBlocks.get((int) block)) {
                    punchedBlocks.set((int) block);
                    freed += PUNCH_BLOCK;
                }
            }
            return freed;
        }

        synchronized void append(ByteBuffer src) throws IOException {
            int n = src.remaining();
            long needed = (long) length + n;
            if (needed > Integer.MAX_VALUE - 8) {
                throw new IOException("in-memory file too large: " + needed + " bytes");
            }
            if (needed > data.length) {
                byte[] grown = new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, data.length * 2L))];
                System.arraycopy(data, 0, grown, 0, length);
                data = grown;
            }
            src.get(data, length, n);
            length += n;
        }

        synchronized int read(long position, ByteBuffer dst) {
            if (position >= length) {
                return dst.hasRemaining() ? -1 : 0;
            }
            int n = (int) Math.min(dst.remaining(), length - position);
            dst.put(data, (int) position, n);
            return n;
        }

        synchronized long size() {
            return length;
        }

        synchronized void sync() {
            syncedLength = length;
        }

        synchronized void truncate() {
            data = new byte[0];
            length = 0;
            syncedLength = 0;
            punchedBlocks.clear();
        }

        synchronized void flipBit(long byteOffset, int bit) {
            if (byteOffset < 0 || byteOffset >= length) {
                throw new IllegalArgumentException("offset " + byteOffset + " outside a file of " + length + " bytes");
            }
            data[(int) byteOffset] ^= (byte) (1 << bit);
        }

        synchronized Inode afterCrash(Random random, boolean garbage) {
            int kept = syncedLength;
            if (random != null && length > syncedLength) {
                kept += random.nextInt(length - syncedLength + 1);
            }
            Inode copy = new Inode();
            copy.data = Arrays.copyOf(data, kept);
            for (int i = syncedLength; garbage && i < kept; i++) {
                if (random.nextInt(8) == 0) {
                    copy.data[i] = (byte) random.nextInt(256);
                }
            }
            copy.length = kept;
            copy.syncedLength = kept;
            return copy;
        }
    }

    private static final class MemWritableFile implements WritableFile {
        private final Inode inode;
        private final Path path;
        private boolean closed;

        MemWritableFile(Inode inode, Path path) {
            this.inode = inode;
            this.path = path;
        }

        @Override
        public void append(ByteBuffer data) throws IOException {
            ensureOpen();
            inode.append(data);
        }

        @Override
        public long size() {
            return inode.size();
        }

        @Override
        public void sync() throws IOException {
            ensureOpen();
            inode.sync();
        }

        @Override
        public void close() {
            closed = true;
        }

        private void ensureOpen() throws IOException {
            if (closed) {
                throw new IOException("file closed: " + path);
            }
        }
    }

    private static final class MemReadableFile implements ReadableFile {
        private final Inode inode;
        private final Path path;
        private volatile boolean closed;

        MemReadableFile(Inode inode, Path path) {
            this.inode = inode;
            this.path = path;
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
            ensureOpen();
            if (position < 0) {
                throw new IllegalArgumentException("negative position " + position);
            }
            return inode.read(position, dst);
        }

        @Override
        public long size() throws IOException {
            ensureOpen();
            return inode.size();
        }

        @Override
        public void close() {
            closed = true;
        }

        private void ensureOpen() throws IOException {
            if (closed) {
                throw new IOException("file closed: " + path);
            }
        }
    }
}
