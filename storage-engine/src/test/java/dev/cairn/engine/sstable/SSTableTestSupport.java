package dev.cairn.engine.sstable;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.internal.InternalKeys;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/** Keys, tables and a read-counting file system for the SSTable tests. */
final class SSTableTestSupport {
    private SSTableTestSupport() {
    }

    static byte[] key(int table, String user, long sequence, byte kind) {
        return InternalKeys.encode(table, user.getBytes(StandardCharsets.UTF_8), sequence, kind);
    }

    static byte[] key(int table, String user, long sequence) {
        return key(table, user, sequence, InternalKeys.KIND_VALUE);
    }

    /** Entry {@code i} of a dense, ordered set: user key "key-%08d", value derived from i. */
    static byte[] denseKey(int i) {
        return key(1, String.format("key-%08d", i), 1000L + i);
    }

    static byte[] denseValue(int i) {
        return ("value-" + i + "-" + "x".repeat(i % 37)).getBytes(StandardCharsets.UTF_8);
    }

    static NavigableMap<byte[], byte[]> denseEntries(int count) {
        NavigableMap<byte[], byte[]> entries = new TreeMap<>(InternalKeys.COMPARATOR);
        for (int i = 0; i < count; i++) {
            entries.put(denseKey(i), denseValue(i));
        }
        return entries;
    }

    /**
     * Random entries: a few table ids, random user keys of varied lengths sharing prefixes,
     * several versions per user key with random kinds, values of 0 to maxValue bytes.
     */
    static NavigableMap<byte[], byte[]> randomEntries(Random random, int count, int maxValue) {
        NavigableMap<byte[], byte[]> entries = new TreeMap<>(InternalKeys.COMPARATOR);
        while (entries.size() < count) {
            int table = random.nextInt(3);
            byte[] user = new byte[random.nextInt(24)];
            for (int i = 0; i < user.length; i++) {
                user[i] = (byte) (random.nextInt(4) == 0 ? random.nextInt(256) : 'a' + random.nextInt(3));
            }
            int versions = 1 + random.nextInt(3);
            for (int v = 0; v < versions && entries.size() < count; v++) {
                byte kind = (byte) random.nextInt(3);
                long sequence = random.nextLong(InternalKeys.MAX_SEQUENCE + 1);
                byte[] value = new byte[kind == InternalKeys.KIND_DELETE ? 0 : random.nextInt(maxValue + 1)];
                random.nextBytes(value);
                entries.put(InternalKeys.encode(table, user, sequence, kind), value);
            }
        }
        return entries;
    }

    static TableProperties write(FileSystem fs, Path path, Map<byte[], byte[]> entries, SSTableOptions options)
            throws IOException {
        SSTableWriter writer = new SSTableWriter(fs, path, WriteLifetime.SHORT, options);
        for (Map.Entry<byte[], byte[]> e : entries.entrySet()) {
            writer.add(e.getKey(), e.getValue());
        }
        return writer.finish();
    }

    /** Reads every entry with a fresh iterator. */
    static List<Map.Entry<byte[], byte[]>> scan(SSTableReader reader, boolean fillCache) throws IOException {
        List<Map.Entry<byte[], byte[]>> out = new java.util.ArrayList<>();
        TableIterator it = reader.iterator(fillCache);
        for (it.seekToFirst(); it.valid(); it.next()) {
            out.add(Map.entry(it.key(), it.value()));
        }
        return out;
    }

    /** Delegates to another file system and counts {@link ReadableFile#read} calls. */
    static final class CountingFileSystem implements FileSystem {
        final FileSystem delegate;
        final AtomicLong reads = new AtomicLong();

        CountingFileSystem(FileSystem delegate) {
            this.delegate = delegate;
        }

        @Override
        public WritableFile create(Path path, WriteLifetime lifetime) throws IOException {
            return delegate.create(path, lifetime);
        }

        @Override
        public ReadableFile openRead(Path path) throws IOException {
            ReadableFile file = delegate.openRead(path);
            return new ReadableFile() {
                @Override
                public int read(long position, ByteBuffer dst) throws IOException {
                    reads.incrementAndGet();
                    return file.read(position, dst);
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
}
