package dev.cairn.backup.target;

import dev.cairn.store.embedded.PageCache;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An archive in a local directory (or a mounted file system). A put writes a temporary file
 * beside its name and renames it; {@link #sync()} forces the files and directories written
 * since the last sync, so that a run pays for durability once per checkpoint, not per blob.
 */
public final class DirectoryTarget implements Target {
    static final String TEMP_MARK = ".tmp-";
    /** From this many files written since the last sync, one file-system sync replaces an fsync each. */
    static final int SYNCFS_THRESHOLD = 64;
    static final int BUFFER_BYTES = 256 * 1024;
    private static final ThreadLocal<ByteBuffer> BUFFER = ThreadLocal.withInitial(() -> ByteBuffer.allocate(BUFFER_BYTES));

    private final Path root;
    private final String token = Long.toHexString(new java.security.SecureRandom().nextLong());
    private final AtomicLong tempCounter = new AtomicLong();
    private final Set<Path> knownDirs = ConcurrentHashMap.newKeySet();
    private final Object pendingLock = new Object();
    private List<Path> pendingFiles = new ArrayList<>();
    private Set<Path> pendingDirs = new HashSet<>();

    /**
     * An archive only read from (a restore): the directory must exist and need not be writable, as
     * one on a write-protected disk or shared read-only is not.
     */
    public static DirectoryTarget forReading(Path root) throws IOException {
        return new DirectoryTarget(root, true);
    }

    public DirectoryTarget(Path root) throws IOException {
        this(root, false);
    }

    private DirectoryTarget(Path root, boolean readOnly) throws IOException {
        this.root = root.toAbsolutePath().normalize();
        if (readOnly) {
            if (!Files.isDirectory(this.root)) {
                throw new IOException(describe() + ": no such directory");
            }
            return;
        }
        try {
            Files.createDirectories(this.root);
        } catch (IOException e) {
            throw fail("cannot create the directory", e);
        }
        if (!Files.isWritable(this.root)) {
            throw new IOException(describe() + ": the directory is not writable");
        }
    }

    public Path root() {
        return root;
    }

    @Override
    public String describe() {
        return "dir:" + root;
    }

    private Path path(String name) {
        if (name.startsWith("/") || name.contains("..")) {
            throw new IllegalArgumentException("bad archive file name " + name);
        }
        return root.resolve(name);
    }

    /**
     * One stat(2), no exception for an absent file: a run asks this of every blob it copies, and
     * most are absent in a first backup. A file whose stat fails for another reason reads as
     * absent; writing it then reports the reason.
     */
    @Override
    public long size(String name) {
        java.io.File f = path(name).toFile();
        long n = f.length();
        return n > 0 || f.isFile() ? n : -1;
    }

    @Override
    public InputStream open(String name, long offset) throws IOException {
        try {
            SeekableByteChannel ch = Files.newByteChannel(path(name), StandardOpenOption.READ);
            ch.position(offset);
            return Channels.newInputStream(ch);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw fail("cannot read " + name, e);
        }
    }

    @Override
    public void put(String name, InputStream in, long size) throws IOException {
        Path file = path(name);
        Path temp = tempBeside(file);
        try {
            try (FileChannel out = createTemp(temp)) {
                copy(in, out);
            }
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (SourceReadException e) {
            Files.deleteIfExists(temp);
            throw e;
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw fail("cannot write " + name, e);
        } catch (RuntimeException e) {
            Files.deleteIfExists(temp);
            throw e;
        }
        pending(file);
    }

    /** Fills a large buffer before each write: a blob of up to {@link #BUFFER_BYTES} is one write(2). */
    private static void copy(InputStream in, FileChannel out) throws IOException {
        ByteBuffer buffer = BUFFER.get();
        byte[] array = buffer.array();
        boolean end = false;
        while (!end) {
            int filled = 0;
            while (filled < array.length) {
                int n = in.read(array, filled, array.length - filled);
                if (n < 0) {
                    end = true;
                    break;
                }
                filled += n;
            }
            buffer.clear().limit(filled);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        }
    }

    @Override
    public boolean putIfAbsent(String name, byte[] bytes) throws IOException {
        Path file = path(name);
        Path temp = tempBeside(file);
        try {
            try (FileChannel out = createTemp(temp)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    out.write(b);
                }
            }
            force(temp);
            Files.createLink(file, temp);
            force(file.getParent());
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            throw fail("cannot write " + name, e);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /**
     * A temporary file beside {@code name}; {@link Staged#commit()} forces its data, renames it
     * and forces the directory, so a committed file is durable on its own, without {@link #sync()}.
     * Its pages, clean once forced, leave the page cache then ({@link PageCache}).
     */
    @Override
    public Staged stage(String name) throws IOException {
        Path file = path(name);
        Path temp = tempBeside(file);
        FileChannel channel = createTemp(temp);
        return new Staged() {
            private long size;
            private boolean committed;

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                write(ByteBuffer.wrap(bytes, offset, length));
            }

            @Override
            public void write(ByteBuffer bytes) throws IOException {
                int length = bytes.remaining();
                try {
                    while (bytes.hasRemaining()) {
                        channel.write(bytes);
                    }
                } catch (IOException e) {
                    throw fail("cannot write " + name, e);
                }
                size += length;
            }

            @Override
            public long size() {
                return size;
            }

            @Override
            public void commit() throws IOException {
                try {
                    channel.force(false);
                    PageCache.drop(temp, false); // written once, read back only by restore and verify
                    channel.close();
                    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                    force(file.getParent());
                    committed = true;
                } catch (IOException e) {
                    throw fail("cannot write " + name, e);
                }
            }

            @Override
            public void close() throws IOException {
                if (!committed) {
                    channel.close();
                    Files.deleteIfExists(temp);
                }
            }
        };
    }

    /**
     * The temporary files under {@code prefix} that writers killed mid-write left behind: not this
     * target's own, and last written before {@code olderThanMillis}, so that a writer still at
     * work is left alone. Only for a holder of the archive's writer lock: every other writer of
     * those names holds it. Delete them with {@link #delete}.
     */
    public List<Entry> abandonedTemporaries(String prefix, long olderThanMillis) throws IOException {
        Path dir = path(prefix);
        List<Entry> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (var walk = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String file = p.getFileName().toString();
                if (file.contains(TEMP_MARK) && !file.contains(token)) {
                    try {
                        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                        if (a.isRegularFile() && a.lastModifiedTime().toMillis() < olderThanMillis) {
                            out.add(new Entry(root.relativize(p).toString().replace(java.io.File.separatorChar, '/'),
                                    a.size(), a.lastModifiedTime().toMillis()));
                        }
                    } catch (NoSuchFileException gone) {
                        // renamed or removed meanwhile
                    }
                }
            }
        } catch (NoSuchFileException gone) {
            // removed while walking
        } catch (java.io.UncheckedIOException e) {
            throw fail("cannot list " + prefix, e.getCause());
        }
        return out;
    }

    /** Removes the empty directories below {@code prefix} (not {@code prefix} itself), deepest first. */
    public void removeEmptyDirectories(String prefix) throws IOException {
        Path dir = path(prefix);
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> dirs;
        try (var walk = Files.walk(dir)) {
            dirs = walk.filter(p -> !p.equals(dir) && Files.isDirectory(p)).sorted(java.util.Comparator.reverseOrder()).toList();
        }
        for (Path d : dirs) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(d)) {
                if (entries.iterator().hasNext()) {
                    continue;
                }
            } catch (NoSuchFileException gone) {
                continue;
            }
            try {
                Files.deleteIfExists(d);
                knownDirs.remove(d);
            } catch (java.nio.file.DirectoryNotEmptyException written) {
                // a writer put a file in it meanwhile
            }
        }
    }

    /** A name no other writer uses: this target's random token and a counter. */
    private Path tempBeside(Path file) {
        return file.resolveSibling(file.getFileName() + TEMP_MARK + token + "-" + tempCounter.incrementAndGet());
    }

    /**
     * Creates the temporary file; its directory is created on first use, remembered, and created
     * again should it have been removed meanwhile.
     */
    private FileChannel createTemp(Path temp) throws IOException {
        Path dir = temp.getParent();
        try {
            if (!knownDirs.contains(dir)) {
                Files.createDirectories(dir);
                knownDirs.add(dir);
            }
            try {
                return FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (NoSuchFileException removed) {
                knownDirs.remove(dir);
                Files.createDirectories(dir);
                knownDirs.add(dir);
                return FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            }
        } catch (IOException e) {
            throw fail("cannot create a file in " + root.relativize(dir), e);
        }
    }

    private void pending(Path file) {
        synchronized (pendingLock) {
            pendingFiles.add(file);
            pendingDirs.add(file.getParent());
        }
    }

    @Override
    public void list(String prefix, EntryVisitor visitor) throws IOException {
        int slash = prefix.lastIndexOf('/');
        Path dir = slash < 0 ? root : path(prefix.substring(0, slash));
        if (!Files.isDirectory(dir)) {
            return;
        }
        walk(dir, prefix, visitor);
    }

    private void walk(Path dir, String prefix, EntryVisitor visitor) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = root.relativize(p).toString().replace(java.io.File.separatorChar, '/');
                BasicFileAttributes attrs;
                try {
                    attrs = Files.readAttributes(p, BasicFileAttributes.class);
                } catch (NoSuchFileException gone) {
                    continue;
                }
                if (attrs.isDirectory()) {
                    if ((name + "/").startsWith(prefix) || prefix.startsWith(name + "/")) {
                        walk(p, prefix, visitor);
                    }
                } else if (name.startsWith(prefix) && !name.contains(TEMP_MARK)) {
                    visitor.visit(new Entry(name, attrs.size(), attrs.lastModifiedTime().toMillis()));
                }
            }
        } catch (NoSuchFileException gone) {
            // removed while listing
        } catch (IOException e) {
            throw fail("cannot list " + prefix, e);
        }
    }

    @Override
    public void delete(String name) throws IOException {
        try {
            Files.deleteIfExists(path(name));
        } catch (IOException e) {
            throw fail("cannot delete " + name, e);
        }
    }

    @Override
    public void sync() throws IOException {
        List<Path> files;
        Set<Path> dirs;
        synchronized (pendingLock) {
            files = pendingFiles;
            dirs = pendingDirs;
            pendingFiles = new ArrayList<>();
            pendingDirs = new HashSet<>();
        }
        try {
            if (files.size() >= SYNCFS_THRESHOLD && syncFileSystem()) {
                return;
            }
            for (Path f : files) {
                force(f);
            }
            for (Path d : dirs) {
                force(d);
            }
        } catch (IOException e) {
            throw fail("cannot sync", e);
        }
    }

    /**
     * Many files written since the last sync: one syncfs(2) of the target's file system (through
     * coreutils {@code sync -f}) costs less than an fsync per file. False when it is unavailable.
     */
    private boolean syncFileSystem() {
        try {
            Process p = new ProcessBuilder("sync", "-f", root.toString()).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void force(Path p) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (NoSuchFileException replaced) {
            // replaced or deleted since; its successor was forced by its own writer
        }
    }

    private IOException fail(String what, IOException cause) {
        String detail = cause instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
                ? fs.getReason() : cause.toString();
        return new IOException(describe() + ": " + what + ": " + detail, cause);
    }

    @Override
    public void close() {
    }
}
