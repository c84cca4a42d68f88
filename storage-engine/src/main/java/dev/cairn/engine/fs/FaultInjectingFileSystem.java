package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Makes operations of another file system fail on demand, after Pebble's {@code vfs/errorfs}:
 * each operation is checked against the {@link FaultRule}s in the order they were added, and the
 * first rule that fires makes it throw {@code IOException("injected fault: ...")} before it
 * reaches the delegate (a torn-write rule lets half of an append through first). Tests add rules,
 * run the code under test, then {@link #clearRules()} to recover.
 *
 * <p>{@link #limitSpace} simulates a file system about to fill: appends take from a budget of
 * free bytes, deleting a file gives its bytes back, and an append that does not fit writes what
 * fits and fails with "No space left on device", as a real device does.
 *
 * <p>Thread-safe if the delegate is; rules may be added and removed while operations run.
 */
public final class FaultInjectingFileSystem implements FileSystem {
    private final FileSystem delegate;
    private final List<FaultRule> rules = new CopyOnWriteArrayList<>();
    private final Object space = new Object();
    /** Bytes appends may still take; {@link Long#MAX_VALUE} when space is not limited. Guarded by {@link #space}. */
    private long freeBytes = Long.MAX_VALUE;

    public FaultInjectingFileSystem(FileSystem delegate) {
        this.delegate = delegate;
    }

    /** Adds a rule and returns it, so the caller can read its counts later. */
    public FaultRule inject(FaultRule rule) {
        rules.add(rule);
        return rule;
    }

    public void remove(FaultRule rule) {
        rules.remove(rule);
    }

    public void clearRules() {
        rules.clear();
    }

    /** From now on, appends may take {@code bytes} more in all (deletes give theirs back). */
    public void limitSpace(long bytes) {
        synchronized (space) {
            freeBytes = bytes;
        }
    }

    /** Space is no longer limited. */
    public void unlimitSpace() {
        limitSpace(Long.MAX_VALUE);
    }

    @Override
    public long usableSpace(Path directory) throws IOException {
        synchronized (space) {
            return Math.min(freeBytes, delegate.usableSpace(directory));
        }
    }

    /** Takes up to {@code wanted} bytes from the budget; returns how many it may write. */
    private long take(long wanted) {
        synchronized (space) {
            if (freeBytes == Long.MAX_VALUE) {
                return wanted;
            }
            long granted = Math.min(wanted, freeBytes);
            freeBytes -= granted;
            return granted;
        }
    }

    private boolean spaceLimited() {
        synchronized (space) {
            return freeBytes != Long.MAX_VALUE;
        }
    }

    /** A file's size; 0 for a directory or a missing path. */
    private long sizeOrZero(Path path) {
        try {
            return delegate.size(path);
        } catch (IOException notAFile) {
            return 0;
        }
    }

    private void giveBack(long bytes) {
        synchronized (space) {
            if (freeBytes != Long.MAX_VALUE) {
                freeBytes += bytes;
            }
        }
    }

    private FaultRule firing(FsOp op, Path... operands) {
        for (FaultRule rule : rules) {
            if (rule.fires(op, operands)) {
                return rule;
            }
        }
        return null;
    }

    private void check(FsOp op, Path... operands) throws IOException {
        FaultRule rule = firing(op, operands);
        if (rule != null) {
            throw fault(op, rule, operands);
        }
    }

    private static IOException fault(FsOp op, FaultRule rule, Path... operands) {
        return new IOException("injected fault: " + op + " " + List.of(operands) + " by " + rule);
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        check(FsOp.CREATE, path);
        return new FaultWritableFile(delegate.create(path, lifetime), path);
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        check(FsOp.OPEN_READ, path);
        return new FaultReadableFile(delegate.openRead(path), path);
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        check(FsOp.RENAME, source, target);
        delegate.rename(source, target);
    }

    @Override
    public void delete(Path path) throws IOException {
        check(FsOp.DELETE, path);
        long freed = spaceLimited() ? sizeOrZero(path) : 0;
        delegate.delete(path);
        giveBack(freed);
    }

    @Override
    public void link(Path existing, Path link) throws IOException {
        check(FsOp.LINK, existing, link);
        delegate.link(existing, link);
    }

    /** Punched bytes the delegate frees go back to the space budget, as a delete's do. */
    @Override
    public long punchHole(Path path, long offset, long length) throws IOException {
        check(FsOp.PUNCH_HOLE, path);
        long freed = delegate.punchHole(path, offset, length);
        giveBack(freed);
        return freed;
    }

    @Override
    public boolean exists(Path path) throws IOException {
        check(FsOp.EXISTS, path);
        return delegate.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        check(FsOp.SIZE, path);
        return delegate.size(path);
    }

    @Override
    public List<String> list(Path directory) throws IOException {
        check(FsOp.LIST, directory);
        return delegate.list(directory);
    }

    @Override
    public void createDirectories(Path directory) throws IOException {
        check(FsOp.CREATE_DIRECTORIES, directory);
        delegate.createDirectories(directory);
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        check(FsOp.SYNC_DIR, directory);
        delegate.syncDirectory(directory);
    }

    @Override
    public AutoCloseable lock(Path path) throws IOException {
        check(FsOp.LOCK, path);
        return delegate.lock(path);
    }

    private final class FaultWritableFile implements WritableFile {
        private final WritableFile file;
        private final Path path;

        FaultWritableFile(WritableFile file, Path path) {
            this.file = file;
            this.path = path;
        }

        @Override
        public void append(ByteBuffer data) throws IOException {
            FaultRule rule = firing(FsOp.APPEND, path);
            if (rule != null) {
                if (rule.tornWrites()) {
                    ByteBuffer half = data.slice();
                    half.limit(data.remaining() / 2);
                    int before = half.remaining();
                    file.append(half);
                    data.position(data.position() + before - half.remaining());
                }
                throw fault(FsOp.APPEND, rule, path);
            }
            int wanted = data.remaining();
            long granted = take(wanted);
            if (granted < wanted) {
                ByteBuffer fits = data.slice();
                fits.limit((int) granted);
                file.append(fits);
                data.position(data.position() + (int) granted);
                throw new IOException("No space left on device (simulated) appending to " + path);
            }
            file.append(data);
        }

        @Override
        public boolean reserve(long bytes) {
            return file.reserve(bytes);
        }

        @Override
        public boolean zeroFill(long bytes) throws IOException {
            return file.zeroFill(bytes);
        }

        @Override
        public long size() {
            return file.size();
        }

        @Override
        public void sync() throws IOException {
            check(FsOp.SYNC, path);
            file.sync();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    private final class FaultReadableFile implements ReadableFile {
        private final ReadableFile file;
        private final Path path;

        FaultReadableFile(ReadableFile file, Path path) {
            this.file = file;
            this.path = path;
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
            check(FsOp.READ, path);
            return file.read(position, dst);
        }

        @Override
        public long size() throws IOException {
            check(FsOp.SIZE, path);
            return file.size();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }
}
