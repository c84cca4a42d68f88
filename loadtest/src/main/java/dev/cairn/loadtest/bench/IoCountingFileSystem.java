package dev.cairn.loadtest.bench;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * A {@link FileSystem} that passes everything to another one and counts what the engine asked
 * of it: bytes appended, read calls and bytes read, syncs. The benchmark's "FileSystem" figures
 * come from here; {@code /proc/self/io} gives the device's view beside them.
 *
 * <p>Thread-safety: thread-safe; counters are {@link LongAdder}s, read with {@link #snapshot()}.
 */
public final class IoCountingFileSystem implements FileSystem {

    /** The counters at one moment. */
    public record Counts(long bytesWritten, long appends, long syncs, long reads, long bytesRead) {
        public Counts minus(Counts earlier) {
            return new Counts(bytesWritten - earlier.bytesWritten, appends - earlier.appends,
                    syncs - earlier.syncs, reads - earlier.reads, bytesRead - earlier.bytesRead);
        }
    }

    private final FileSystem delegate;
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder appends = new LongAdder();
    private final LongAdder syncs = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();

    public IoCountingFileSystem(FileSystem delegate) {
        this.delegate = delegate;
    }

    public Counts snapshot() {
        return new Counts(bytesWritten.sum(), appends.sum(), syncs.sum(), reads.sum(), bytesRead.sum());
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        WritableFile file = delegate.create(path, lifetime);
        return new WritableFile() {
            @Override
            public void append(ByteBuffer data) throws IOException {
                int n = data.remaining();
                file.append(data);
                bytesWritten.add(n);
                appends.increment();
            }

            @Override
            public long size() {
                return file.size();
            }

            @Override
            public void sync() throws IOException {
                file.sync();
                syncs.increment();
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        ReadableFile file = delegate.openRead(path);
        return new ReadableFile() {
            @Override
            public int read(long position, ByteBuffer dst) throws IOException {
                int n = file.read(position, dst);
                reads.increment();
                if (n > 0) {
                    bytesRead.add(n);
                }
                return n;
            }

            @Override
            public long size() throws IOException {
                return file.size();
            }

            @Override
            public void close() throws IOException {
                file.close();
            }
        };
    }

    @Override
    public void rename(Path source, Path target) throws IOException {
        delegate.rename(source, target);
    }

    @Override
    public void delete(Path path) throws IOException {
        delegate.delete(path);
    }

    @Override
    public void link(Path existing, Path link) throws IOException {
        delegate.link(existing, link);
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return delegate.exists(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return delegate.size(path);
    }

    @Override
    public List<String> list(Path directory) throws IOException {
        return delegate.list(directory);
    }

    @Override
    public void createDirectories(Path directory) throws IOException {
        delegate.createDirectories(directory);
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        delegate.syncDirectory(directory);
    }

    @Override
    public AutoCloseable lock(Path path) throws IOException {
        return delegate.lock(path);
    }
}
