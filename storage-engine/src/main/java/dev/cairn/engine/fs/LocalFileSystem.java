package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The real disk, through {@link FileChannel} positional I/O. Each created file carries its
 * {@link WriteLifetime} as a kernel write-life hint (see {@link LifetimeHints}).
 */
public final class LocalFileSystem implements FileSystem {
    /**
     * The most of a heap buffer handed to one system call. The JDK moves a heap buffer's bytes
     * through a temporary direct buffer as large as the call and keeps it for the calling thread:
     * 1 MiB values read whole on 200 request threads would hold 200 MiB of native memory for good.
     */
    static final int HEAP_IO_BYTES = 64 * 1024;

    private final Map<Path, FileStore> stores = new ConcurrentHashMap<>();

    /** {@code b} itself, or for a large heap buffer a view of its next {@link #HEAP_IO_BYTES}. */
    private static ByteBuffer window(ByteBuffer b) {
        if (b.isDirect() || b.remaining() <= HEAP_IO_BYTES) {
            return b;
        }
        ByteBuffer w = b.slice();
        w.limit(HEAP_IO_BYTES);
        return w;
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        if (lifetime != WriteLifetime.NOT_SET) {
            // Best effort: where the kernel or file system refuses, the hint is logged once and skipped.
            LifetimeHints.apply(path, lifetime);
        }
        return new LocalWritableFile(channel, path);
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        return new LocalReadableFile(FileChannel.open(path, StandardOpenOption.READ));
    }

    /** With {@code O_DIRECT} ({@link DirectReadableFile}) where the file system allows it. */
    @Override
    public ReadableFile openReadAroundPageCache(Path path) throws IOException {
        return openReadAroundPageCache(path, null);
    }

    /** With {@code opener} standing in for the {@code O_DIRECT} open, unless null. */
    ReadableFile openReadAroundPageCache(Path path, DirectReadableFile.DirectOpener opener) throws IOException {
        ReadableFile direct = opener == null ? DirectReadableFile.openOrNull(path) : DirectReadableFile.openOrNull(path, opener);
        return direct != null ? direct : openRead(path);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("atomic rename not supported from " + source + " to " + target, e);
        }
    }

    @Override
    public void delete(Path path) throws IOException {
        Files.deleteIfExists(path);
    }

    @Override
    public void link(Path existing, Path link) throws IOException {
        Files.createLink(link, existing);
    }

    @Override
    public long punchHole(Path path, long offset, long length) throws IOException {
        return HolePunch.punch(path, offset, length);
    }

    @Override
    public boolean exists(Path path) {
        return Files.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return Files.size(path);
    }

    @Override
    public List<String> list(Path directory) throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> entries = Files.list(directory)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        } catch (NoSuchFileException e) {
            return List.of();
        }
        return names;
    }

    @Override
    public void createDirectories(Path directory) throws IOException {
        Files.createDirectories(directory);
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    @Override
    public long usableSpace(Path directory) throws IOException {
        // The store is looked up once per directory (a scan of the mount table); each call after is one statvfs.
        FileStore store = stores.get(directory);
        if (store == null) {
            store = Files.getFileStore(directory);
            stores.put(directory, store);
        }
        return store.getUsableSpace();
    }

    @Override
    public AutoCloseable lock(Path path) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            channel.close();
            throw new IOException("another process holds the lock " + path);
        }
        FileLock held = lock;
        return () -> {
            held.release();
            channel.close();
        };
    }

    private static final class LocalWritableFile implements WritableFile {
        private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(1 << 20).asReadOnlyBuffer();

        private final FileChannel channel;
        private final Path path;
        private long size;
        /** Where the zeros written ahead of {@link #size} end (0: none). */
        private long zeroFilledTo;

        LocalWritableFile(FileChannel channel, Path path) {
            this.channel = channel;
            this.path = path;
        }

        @Override
        public boolean reserve(long bytes) {
            return SpaceReservation.reserve(path, bytes);
        }

        @Override
        public void append(ByteBuffer data) throws IOException {
            while (data.hasRemaining()) {
                ByteBuffer w = window(data);
                int n = channel.write(w, size);
                if (w != data) {
                    data.position(data.position() + n);
                }
                size += n;
            }
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public boolean zeroFill(long bytes) throws IOException {
            long end = size + bytes;
            long at = Math.max(size, zeroFilledTo);
            while (at < end) {
                ByteBuffer zeros = ZEROS.duplicate();
                zeros.limit((int) Math.min(zeros.capacity(), end - at));
                at += channel.write(zeros, at);
            }
            zeroFilledTo = Math.max(zeroFilledTo, end);
            channel.force(false);
            return true;
        }

        @Override
        public void sync() throws IOException {
            channel.force(false);
        }

        @Override
        public void close() throws IOException {
            try {
                if (zeroFilledTo > size && channel.isOpen()) {
                    channel.truncate(size);
                }
            } finally {
                channel.close();
            }
        }
    }

    private static final class LocalReadableFile implements ReadableFile {
        private final FileChannel channel;

        LocalReadableFile(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
            if (window(dst) == dst) {
                return channel.read(dst, position);
            }
            int total = 0;
            while (dst.hasRemaining()) {
                ByteBuffer w = window(dst);
                int want = w.remaining();
                int n = channel.read(w, position + total);
                if (n < 0) {
                    return total == 0 ? -1 : total;
                }
                if (w != dst) {
                    dst.position(dst.position() + n);
                }
                total += n;
                if (n < want) {
                    break;
                }
            }
            return total;
        }

        @Override
        public long size() throws IOException {
            return channel.size();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
