package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the I/O that passes through to another file system: each {@link ReadableFile#read}
 * call is one read op, each {@link WritableFile#append} one write op; bytes are what the
 * delegate actually read or accepted. Benchmarks use it for device reads per GET and write
 * amplification per lifetime class.
 *
 * <p>Thread-safe if the delegate is; counters are {@link LongAdder}s, so a snapshot taken while
 * I/O runs is not one atomic cut across counters.
 */
public final class CountingFileSystem extends ForwardingFileSystem {
    private final LongAdder readOps = new LongAdder();
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder writeOps = new LongAdder();
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder syncs = new LongAdder();
    private final LongAdder directorySyncs = new LongAdder();
    private final Map<WriteLifetime, LongAdder> bytesWrittenByLifetime = new EnumMap<>(WriteLifetime.class);

    public CountingFileSystem(FileSystem delegate) {
        super(delegate);
        for (WriteLifetime lifetime : WriteLifetime.values()) {
            bytesWrittenByLifetime.put(lifetime, new LongAdder());
        }
    }

    public IoCounters snapshot() {
        Map<WriteLifetime, Long> byLifetime = new EnumMap<>(WriteLifetime.class);
        bytesWrittenByLifetime.forEach((lifetime, adder) -> byLifetime.put(lifetime, adder.sum()));
        return new IoCounters(readOps.sum(), bytesRead.sum(), writeOps.sum(), bytesWritten.sum(), syncs.sum(),
                directorySyncs.sum(), byLifetime);
    }

    @Override
    public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
        return new CountingWritableFile(delegate.create(path, lifetime), bytesWrittenByLifetime.get(lifetime));
    }

    @Override
    public ReadableFile openRead(Path path) throws IOException {
        return new CountingReadableFile(delegate.openRead(path));
    }

    @Override
    public ReadableFile openReadAroundPageCache(Path path) throws IOException {
        return new CountingReadableFile(delegate.openReadAroundPageCache(path));
    }

    @Override
    public void syncDirectory(Path directory) throws IOException {
        delegate.syncDirectory(directory);
        directorySyncs.increment();
    }

    private final class CountingWritableFile implements WritableFile {
        private final WritableFile file;
        private final LongAdder lifetimeBytes;

        CountingWritableFile(WritableFile file, LongAdder lifetimeBytes) {
            this.file = file;
            this.lifetimeBytes = lifetimeBytes;
        }

        @Override
        public void append(ByteBuffer data) throws IOException {
            int before = data.remaining();
            try {
                file.append(data);
            } finally {
                int written = before - data.remaining();
                writeOps.increment();
                bytesWritten.add(written);
                lifetimeBytes.add(written);
            }
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
            file.sync();
            syncs.increment();
        }

        @Override
        public void close() throws IOException {
            file.close();
        }
    }

    private final class CountingReadableFile implements ReadableFile {
        private final ReadableFile file;

        CountingReadableFile(ReadableFile file) {
            this.file = file;
        }

        @Override
        public int read(long position, ByteBuffer dst) throws IOException {
            int n = file.read(position, dst);
            readOps.increment();
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
    }
}
