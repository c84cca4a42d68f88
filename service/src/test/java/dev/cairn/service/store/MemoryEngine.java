package dev.cairn.service.store;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineStats;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Snapshot;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine's public contract held in memory, for tests of code written against it: tables of
 * sorted keys, atomic batches, snapshots (copies of the maps). Thread-safe: one monitor.
 */
final class MemoryEngine implements Engine {
    private final Map<String, TreeMap<byte[], byte[]>> tables = new HashMap<>();
    private final Map<String, Table> handles = new HashMap<>();
    private long sequence;
    private long writesBeforeCrash = -1;

    /**
     * Simulates the process dying: the next {@code writes} writes succeed, every later one fails
     * without effect until {@link #restart()}.
     */
    synchronized void crashAfter(long writes) {
        writesBeforeCrash = writes;
    }

    /** Writes succeed again: what a reopened engine holds is what was written before the crash. */
    synchronized void restart() {
        writesBeforeCrash = -1;
    }

    @Override
    public synchronized Table table(String name) {
        return handles.computeIfAbsent(name, n -> {
            tables.put(n, new TreeMap<>(Arrays::compareUnsigned));
            return new MemoryTable(n);
        });
    }

    @Override
    public synchronized void write(WriteBatch batch) throws IOException {
        if (writesBeforeCrash == 0) {
            throw new IOException("simulated crash");
        }
        if (writesBeforeCrash > 0) {
            writesBeforeCrash--;
        }
        for (WriteBatch.Op op : batch.ops()) {
            TreeMap<byte[], byte[]> t = tables.get(op.table().name());
            if (op.isDelete()) {
                t.remove(op.key());
            } else {
                t.put(op.key().clone(), op.value().clone());
            }
        }
        sequence++;
    }

    @Override
    public synchronized Snapshot snapshot() {
        Map<String, TreeMap<byte[], byte[]>> copy = new HashMap<>();
        tables.forEach((n, t) -> copy.put(n, new TreeMap<>(t)));
        long seq = sequence;
        return new MemorySnapshot(copy, seq);
    }

    private record MemorySnapshot(Map<String, TreeMap<byte[], byte[]>> tables, long sequence) implements Snapshot {
        @Override
        public void close() {
        }
    }

    @Override
    public void checkpoint(Path directory) {
        throw new UnsupportedOperationException("checkpoint: not part of what this fake serves");
    }

    @Override
    public void flush() {
    }

    @Override
    public void compactAll() {
    }

    @Override
    public void collectValueGarbage(double minGarbageRatio) {
    }

    @Override
    public EngineStats stats() {
        return new EngineStats(List.of(), List.of(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, 0, 0);
    }

    @Override
    public void close() {
    }

    synchronized int size(String table) {
        return tables.get(table).size();
    }

    private final class MemoryTable implements Table {
        private final String name;

        MemoryTable(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        private TreeMap<byte[], byte[]> view(ReadOptions options) {
            return options.snapshot() == null ? tables.get(name) : ((MemorySnapshot) options.snapshot()).tables().get(name);
        }

        @Override
        public byte[] get(byte[] key, ReadOptions options) {
            synchronized (MemoryEngine.this) {
                byte[] v = view(options).get(key);
                return v == null ? null : v.clone();
            }
        }

        @Override
        public void put(byte[] key, byte[] value) throws IOException {
            write(new WriteBatch().put(this, key, value));
        }

        @Override
        public void putRow(byte[] key, dev.cairn.engine.Row row) throws IOException {
            put(key, encodeRow(row));
        }

        @Override
        public dev.cairn.engine.Row getRow(byte[] key, ReadOptions options) throws CorruptionException {
            byte[] value = get(key, options);
            return value == null ? null : decodeRow(value);
        }

        /** Self-describing: this fake has no schema catalogue. */
        @Override
        public byte[] encodeRow(dev.cairn.engine.Row row) {
            return dev.cairn.engine.row.RowCodec.encodeSelfDescribing(row);
        }

        @Override
        public dev.cairn.engine.Row decodeRow(byte[] value) throws CorruptionException {
            return dev.cairn.engine.row.RowCodec.decode(value, id -> null);
        }

        @Override
        public void delete(byte[] key) throws IOException {
            write(new WriteBatch().delete(this, key));
        }

        @Override
        public EntryIterator scan(KeyRange range, ReadOptions options) {
            List<Entry> entries = new ArrayList<>();
            synchronized (MemoryEngine.this) {
                TreeMap<byte[], byte[]> t = view(options);
                Map<byte[], byte[]> sub = range.start() == null ? t : t.tailMap(range.start(), true);
                for (Map.Entry<byte[], byte[]> e : sub.entrySet()) {
                    if (range.end() != null && Arrays.compareUnsigned(e.getKey(), range.end()) >= 0) {
                        break;
                    }
                    entries.add(new Entry(e.getKey().clone(), e.getValue().clone()));
                }
            }
            Iterator<Entry> it = entries.iterator();
            return new EntryIterator() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public Entry next() {
                    return it.next();
                }

                @Override
                public void close() {
                }
            };
        }
    }
}
