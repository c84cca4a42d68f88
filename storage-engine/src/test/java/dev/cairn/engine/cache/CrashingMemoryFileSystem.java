package dev.cairn.engine.cache;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-memory {@link FileSystem} for tests that can simulate a crash: {@link #crash} returns
 * the state a machine would find after power loss — only names made durable by
 * {@link #syncDirectory} survive, each file keeps its synced bytes plus, optionally, a torn
 * prefix of its unsynced tail (possibly with garbage). It can also fail the n-th sync.
 *
 * <p>Thread-safe: every operation synchronises on the file system.
 */
public final class CrashingMemoryFileSystem implements FileSystem {

    private static final class Node {
        byte[] data = new byte[0];
        int length;
        int synced;

        synchronized void append(ByteBuffer src) {
            int n = src.remaining();
            if (length + n > data.length) {
                data = java.util.Arrays.copyOf(data, Math.max(length + n, data.length * 2 + 64));
            }
            src.get(data, length, n);
            length += n;
        }

        synchronized int read(long position, ByteBuffer dst) {
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(dst.remaining(), length - position);
            dst.put(data, (int) position, n);
            return n;
        }

        synchronized Node copy(int keep) {
            Node c = new Node();
            c.data = java.util.Arrays.copyOf(data, keep);
            c.length = keep;
            c.synced = keep;
            return c;
        }
    }

    private final Map<Path, Node> live = new HashMap<>();
    private final Map<Path, Node> durable = new HashMap<>();
    private final AtomicInteger syncsUntilFailure = new AtomicInteger(-1);
    private final AtomicInteger syncCount = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicLong reads = new java.util.concurrent.atomic.AtomicLong();

    /** Number of positional reads served so far. */
    public long readCount() {
        return reads.get();
    }

    /** Makes the {@code n}-th file sync from now (1 = the next) throw an IOException. */
    public void failSyncAfter(int n) {
        syncsUntilFailure.set(n);
    }

    /** Number of file syncs so far. */
    public int syncCount() {
        return syncCount.get();
    }

    /**
     * The file system as found after a crash now. With {@code tear}, each file keeps a random
     * prefix of its unsynced bytes, and with {@code garbage} some of those kept bytes are random.
     */
    public synchronized CrashingMemoryFileSystem crash(Random random, boolean tear, boolean garbage) {
        CrashingMemoryFileSystem after = new CrashingMemoryFileSystem();
        for (Map.Entry<Path, Node> e : durable.entrySet()) {
            Node n = e.getValue();
            Node c;
            synchronized (n) {
                int keep = n.synced;
                if (tear && n.length > n.synced) {
                    keep += random.nextInt(n.length - n.synced + 1);
                }
                c = n.copy(keep);
                if (garbage) {
                    for (int i = n.synced; i < keep; i++) {
                        if (random.nextInt(8) == 0) {
                            c.data[i] = (byte) random.nextInt(256);
                        }
                    }
                }
            }
            after.live.put(e.getKey(), c);
            after.durable.put(e.getKey(), c);
        }
        return after;
    }

    /** Flips one bit of a file's content in place. */
    public synchronized void flipBit(Path path, long offset, int bit) throws IOException {
        Node n = node(path);
        synchronized (n) {
            n.data[(int) offset] ^= (byte) (1 << bit);
        }
    }

    /** Cuts a file to {@code length} bytes, durably. */
    public synchronized void truncate(Path path, int length) throws IOException {
        Node n = node(path);
        synchronized (n) {
            n.length = Math.min(n.length, length);
            n.synced = Math.min(n.synced, length);
        }
    }

    private Node node(Path path) throws IOException {
        Node n = live.get(path);
        if (n == null) {
            throw new NoSuchFileException(path.toString());
        }
        return n;
    }

    @Override
    public synchronized WritableFile create(Path path, WriteLifetime lifetime) {
        Node n = new Node();
        live.put(path, n);
        return new WritableFile() {
            private boolean closed;

            @Override
            public void append(ByteBuffer data) throws IOException {
                if (closed) {
                    throw new ClosedChannelException();
                }
                n.append(data);
            }

            @Override
            public long size() {
                synchronized (n) {
                    return n.length;
                }
            }

            @Override
            public void sync() throws IOException {
                if (closed) {
                    throw new ClosedChannelException();
                }
                syncCount.incrementAndGet();
                if (syncsUntilFailure.get() > 0 && syncsUntilFailure.decrementAndGet() == 0) {
                    throw new IOException("injected sync failure");
                }
                synchronized (n) {
                    n.synced = n.length;
                }
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }

    @Override
    public synchronized ReadableFile openRead(Path path) throws IOException {
        Node n = node(path);
        return new ReadableFile() {
            private volatile boolean closed;

            @Override
            public int read(long position, ByteBuffer dst) throws IOException {
                if (closed) {
                    throw new ClosedChannelException();
                }
                reads.incrementAndGet();
                return n.read(position, dst);
            }

            @Override
            public long size() {
                synchronized (n) {
                    return n.length;
                }
            }

            @Override
            public void close() {
                closed = true;
            }
        };
    }

    @Override
    public synchronized void rename(Path source, Path target) throws IOException {
        live.put(target, node(source));
        live.remove(source);
    }

    @Override
    public synchronized void delete(Path path) {
        live.remove(path);
    }

    @Override
    public void link(Path existing, Path link) throws IOException {
        synchronized (this) {
            live.put(link, node(existing));
        }
    }

    @Override
    public synchronized boolean exists(Path path) {
        return live.containsKey(path);
    }

    @Override
    public synchronized long size(Path path) throws IOException {
        Node n = node(path);
        synchronized (n) {
            return n.length;
        }
    }

    @Override
    public synchronized List<String> list(Path directory) {
        List<String> names = new ArrayList<>();
        for (Path p : live.keySet()) {
            if (directory.equals(p.getParent())) {
                names.add(p.getFileName().toString());
            }
        }
        return names;
    }

    @Override
    public void createDirectories(Path directory) {
    }

    @Override
    public synchronized void syncDirectory(Path directory) {
        durable.keySet().removeIf(p -> directory.equals(p.getParent()));
        for (Map.Entry<Path, Node> e : live.entrySet()) {
            if (directory.equals(e.getKey().getParent())) {
                durable.put(e.getKey(), e.getValue());
            }
        }
    }

    @Override
    public AutoCloseable lock(Path path) {
        return () -> {
        };
    }
}
