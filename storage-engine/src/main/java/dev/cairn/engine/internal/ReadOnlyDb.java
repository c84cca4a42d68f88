package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.EngineStats;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Row;
import dev.cairn.engine.Snapshot;
import dev.cairn.engine.StorageOrder;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.row.RowCodec;
import dev.cairn.engine.row.SchemaCatalogue;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine directory opened for reading alone, such as a checkpoint being backed up. Opening
 * reads the manifest and replays unflushed log records into memory; nothing in the directory is
 * created, changed or deleted, no lock file is taken, and no thread is started. Reads go to the
 * tree directly: there is no row cache, and {@link ReadOptions#fillCache()} false keeps blocks
 * out of the block cache too. Writes and maintenance throw {@link UnsupportedOperationException}.
 *
 * <p>The caller guarantees that nothing writes the directory while it is open (a checkpoint is
 * never written after it is made). Thread-safety: every method may be called from any thread.
 */
final class ReadOnlyDb implements Engine, TableOps {
    private final Path dir;
    private final Lifecycle lifecycle = new Lifecycle();
    private final EngineCounters counters = new EngineCounters();
    private final TableFiles files;
    private final VersionSet versions;
    private final ValueStore values;
    private final SnapshotList snapshots;
    private final TreeReader reader;
    private final ConcurrentHashMap<String, TableImpl> tablesByName = new ConcurrentHashMap<>();
    private final AtomicInteger nextAbsentTableId = new AtomicInteger();
    private SchemaCatalogue catalogue;

    private ReadOnlyDb(EngineOptions options) {
        this.dir = options.directory();
        FileSystem fs = options.fileSystem();
        Tiers tiers = new Tiers(options);
        this.files = new TableFiles(fs, tiers, options.blockCacheBytes());
        this.versions = new VersionSet(fs, dir, files, lifecycle, false);
        this.values = new ValueStore(fs, tiers.valueDirectory(), options.valueFileBytes(), () -> {
            throw new IllegalStateException("a read-only engine creates no files");
        });
        this.snapshots = new SnapshotList(versions::visibleSequence, () -> { });
        this.reader = new TreeReader(versions, values, snapshots);
    }

    static Engine open(EngineOptions options) throws IOException {
        if (!options.fileSystem().exists(options.directory().resolve(FileNames.CURRENT))) {
            throw new IOException("no Cairn engine in " + options.directory() + " (no " + FileNames.CURRENT + " file)");
        }
        ReadOnlyDb db = new ReadOnlyDb(options);
        try {
            new Recovery(options, new Tiers(options), db.versions, db.values).recoverReadOnly();
            int maxId = 0;
            for (var t : db.versions.manifest().tables().entrySet()) {
                db.tablesByName.put(t.getKey(), new TableImpl(db, t.getKey(), t.getValue()));
                maxId = Math.max(maxId, t.getValue());
            }
            db.nextAbsentTableId.set(maxId + 1);
            db.catalogue = Recovery.openCatalogue(options, true);
        } catch (IOException | RuntimeException e) {
            db.closeFiles();
            throw e;
        }
        return db;
    }

    /**
     * The table of this name. A table the directory does not hold reads as empty: it gets an id
     * no stored key carries, kept in memory alone.
     */
    @Override
    public Table table(String name) throws IOException {
        if (name == null || name.isEmpty() || name.length() > 200) {
            throw new IllegalArgumentException("table names are 1..200 characters");
        }
        lifecycle.checkOpen();
        return tablesByName.computeIfAbsent(name, n -> new TableImpl(this, n, nextAbsentTableId.getAndIncrement()));
    }

    private TableImpl own(Table table) {
        if (!(table instanceof TableImpl t) || t.db() != this) {
            throw new IllegalArgumentException("table " + table + " does not belong to this engine");
        }
        return t;
    }

    @Override
    public byte[] get(TableImpl table, byte[] key, ReadOptions options) throws IOException {
        lifecycle.checkOpen();
        return reader.get(own(table).id(), key, options);
    }

    @Override
    public EntryIterator scan(TableImpl table, KeyRange range, ReadOptions options) throws IOException {
        lifecycle.checkOpen();
        return reader.scan(own(table).id(), range, options);
    }

    @Override
    public void scanInStorageOrder(TableImpl table, KeyRange range, ReadOptions options, StorageOrder.Filter filter,
                                   StorageOrder.Visitor visitor, int batchEntries) throws IOException {
        lifecycle.checkOpen();
        reader.scanInStorageOrder(own(table).id(), range, options, filter, visitor, batchEntries);
    }

    @Override
    public Snapshot snapshot() {
        return snapshots.take();
    }

    @Override
    public Row decodeRow(byte[] encoded) throws CorruptionException {
        return RowCodec.decode(encoded, catalogue);
    }

    @Override
    public byte[] encodeRow(TableImpl table, Row row) {
        throw rejected("encodeRow");
    }

    @Override
    public void write(WriteBatch batch) {
        throw rejected("write");
    }

    @Override
    public void checkpoint(Path directory) {
        throw rejected("checkpoint");
    }

    @Override
    public void flush() {
        throw rejected("flush");
    }

    @Override
    public void compactAll() {
        throw rejected("compactAll");
    }

    @Override
    public void collectValueGarbage(double minGarbageRatio) {
        throw rejected("collectValueGarbage");
    }

    private UnsupportedOperationException rejected(String operation) {
        return new UnsupportedOperationException("the engine in " + dir + " is open read-only; " + operation
                + " needs Engine.open");
    }

    @Override
    public EngineStats stats() {
        return StatsCollector.collect(versions, values, counters, null, catalogue);
    }

    @Override
    public void close() throws IOException {
        if (lifecycle.isClosed()) {
            return;
        }
        lifecycle.markClosed();
        IOException failure = closeFiles();
        if (failure != null) {
            throw failure;
        }
    }

    private IOException closeFiles() {
        IOException failure = files.closeAll();
        try {
            values.close();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        try {
            if (catalogue != null) {
                catalogue.close();
            }
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        return failure;
    }
}
