package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Snapshot;
import dev.cairn.engine.StorageOrder;
import dev.cairn.engine.sstable.SSTableReader;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The read path below the row cache: the active memtable, the frozen ones (newest first), then
 * SSTables level by level (every overlapping level-0 file, newest first; one file per deeper
 * level), then the value file a pointer names. Scans merge the same sources.
 *
 * <p>Thread-safety: any thread, no lock. Each read pins one {@link SuperVersion}, so the files it
 * reads are not deleted under it.
 */
final class TreeReader {
    /** A stored entry before it is resolved: its kind and its inline value or value pointer. */
    record RawValue(byte kind, byte[] value) {
    }

    private final VersionSet versions;
    private final TableFiles files;
    private final ValueStore values;
    private final SnapshotList snapshots;

    TreeReader(VersionSet versions, ValueStore values, SnapshotList snapshots) {
        this.versions = versions;
        this.files = versions.files();
        this.values = values;
        this.snapshots = snapshots;
    }

    /** The value of {@code key} in table {@code tableId}, or null when absent or deleted. */
    byte[] get(int tableId, byte[] key, ReadOptions readOptions) throws IOException {
        SuperVersion sv = versions.acquire();
        try {
            long sequence = readSequence(readOptions);
            RawValue raw = lookup(sv, InternalKeys.seekKey(tableId, key, sequence), readOptions.fillCache());
            if (raw == null || raw.kind == InternalKeys.KIND_DELETE) {
                return null;
            }
            return resolve(raw.kind, raw.value);
        } finally {
            sv.unref();
        }
    }

    /** The newest stored entry of the key at the latest sequence, unresolved; null when absent. */
    RawValue latest(int tableId, byte[] key) throws IOException {
        SuperVersion sv = versions.acquire();
        try {
            return lookup(sv, InternalKeys.seekKey(tableId, key, versions.visibleSequence()), true);
        } finally {
            sv.unref();
        }
    }

    EntryIterator scan(int tableId, KeyRange range, ReadOptions readOptions) throws IOException {
        return iterator(tableId, range, readOptions, this::resolve);
    }

    /**
     * The entries of the range whose filter wants them, values in the tree at once, values in
     * value files in storage order, {@code batchEntries} at a time ({@link dev.cairn.engine.Table#scanInStorageOrder}).
     * The iterator pins its super version throughout, so no value file it points into is deleted.
     */
    void scanInStorageOrder(int tableId, KeyRange range, ReadOptions readOptions, StorageOrder.Filter filter,
                            StorageOrder.Visitor visitor, int batchEntries) throws IOException {
        try (StorageOrderScan batch = new StorageOrderScan(values, visitor, batchEntries, readOptions.aroundPageCache());
             DbIterator it = iterator(tableId, range, readOptions, (kind, value) -> value)) {
            while (it.hasNext()) {
                byte kind = it.nextKind();
                Entry e = it.next();
                if (kind == InternalKeys.KIND_VALUE_POINTER) {
                    ValuePointer p = ValuePointer.decodeStored(e.value(), "a table entry");
                    if (filter.wants(e.key(), p.length())) {
                        batch.add(e.key(), p);
                    }
                } else if (filter.wants(e.key(), e.value().length)) {
                    visitor.visit(e.key(), e.value(), 0, e.value().length);
                }
            }
            batch.finish();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private DbIterator iterator(int tableId, KeyRange range, ReadOptions readOptions, DbIterator.ValueResolver resolver)
            throws IOException {
        SuperVersion sv = versions.acquire();
        long sequence;
        MergingIterator merged;
        try {
            sequence = readSequence(readOptions);
            List<InternalIterator> children = new ArrayList<>();
            children.add(new MemtableIterator(sv.mem));
            for (Memtable m : sv.immutables) {
                children.add(new MemtableIterator(m));
            }
            List<List<FileMeta>> levels = sv.version.levels();
            byte[] lo = range.start() == null ? null : InternalKeys.seekKey(tableId, range.start(), InternalKeys.MAX_SEQUENCE);
            for (FileMeta f : levels.get(0)) {
                if (lo == null || Keys.userCompare(f.largest(), lo) >= 0) {
                    children.add(new TableFileIterator(files.reader(f.number()), readOptions.fillCache()));
                }
            }
            for (int level = 1; level < levels.size(); level++) {
                if (!levels.get(level).isEmpty()) {
                    children.add(new LevelIterator(levels.get(level), files::reader, readOptions.fillCache()));
                }
            }
            merged = new MergingIterator(children);
        } catch (RuntimeException e) {
            sv.unref();
            throw e;
        }
        // DbIterator releases the super version itself, also when its first seek fails.
        return new DbIterator(merged, tableId, range, sequence, resolver, sv::unref);
    }

    /** REQUIRES: called after acquiring the super version, so every write up to it is in that view. */
    private long readSequence(ReadOptions readOptions) {
        Snapshot s = readOptions.snapshot();
        if (s == null) {
            return versions.visibleSequence();
        }
        if (!(s instanceof SnapshotImpl impl) || !impl.belongsTo(snapshots)) {
            throw new IllegalArgumentException("snapshot does not belong to this engine");
        }
        return s.sequence();
    }

    private byte[] resolve(byte kind, byte[] value) throws IOException {
        if (kind == InternalKeys.KIND_VALUE_POINTER) {
            try {
                return values.read(ValuePointer.decodeStored(value, "a table entry"));
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        return value;
    }

    private RawValue lookup(SuperVersion sv, byte[] seekKey, boolean fillCache) throws IOException {
        Map.Entry<byte[], byte[]> e = sv.mem.find(seekKey);
        if (e == null) {
            for (Memtable m : sv.immutables) {
                e = m.find(seekKey);
                if (e != null) {
                    break;
                }
            }
        }
        if (e != null) {
            return new RawValue(InternalKeys.kind(e.getKey()), e.getValue());
        }
        byte[] filterKey = Arrays.copyOf(seekKey, seekKey.length - InternalKeys.TRAILER_BYTES);
        List<List<FileMeta>> levels = sv.version.levels();
        for (FileMeta f : levels.get(0)) {
            if (Keys.userCompare(f.smallest(), seekKey) <= 0 && Keys.userCompare(f.largest(), seekKey) >= 0) {
                RawValue found = lookupInFile(f, seekKey, filterKey, fillCache);
                if (found != null) {
                    return found;
                }
            }
        }
        for (int level = 1; level < levels.size(); level++) {
            List<FileMeta> inLevel = levels.get(level);
            int i = findFile(inLevel, seekKey);
            if (i < inLevel.size() && Keys.userCompare(inLevel.get(i).smallest(), seekKey) <= 0) {
                RawValue found = lookupInFile(inLevel.get(i), seekKey, filterKey, fillCache);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** The first file whose largest key is at or after {@code key}. */
    private static int findFile(List<FileMeta> files, byte[] key) {
        int lo = 0;
        int hi = files.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (InternalKeys.COMPARATOR.compare(files.get(mid).largest(), key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private RawValue lookupInFile(FileMeta f, byte[] seekKey, byte[] filterKey, boolean fillCache) throws IOException {
        SSTableReader reader = files.reader(f.number());
        if (!reader.mayContain(filterKey)) {
            return null;
        }
        Entry e = reader.seekFirstAtOrAfter(seekKey, fillCache);
        if (e != null && InternalKeys.sameUserKey(e.key(), seekKey)) {
            return new RawValue(InternalKeys.kind(e.key()), e.value());
        }
        return null;
    }
}
