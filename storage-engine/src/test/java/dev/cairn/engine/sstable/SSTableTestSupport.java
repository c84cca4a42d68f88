package dev.cairn.engine.sstable;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

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

}
