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
import dev.cairn.engine.cache.RowCache;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.row.RowCodec;
import dev.cairn.engine.row.SchemaCatalogue;
import dev.cairn.engine.sstable.SSTableOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The engine: open, close, the table handles, and thin get and scan over the row cache and the
 * {@link TreeReader}. The work is done by the pieces it wires together: {@link Recovery} (open),
 * {@link CommitPipeline} (the write thread, commit log and group commit), {@link VersionSet}
 * (manifest, versions, file references), {@link Flusher}, {@link Compactor}, {@link ValueGc},
 * {@link Checkpointer} and {@link StatsCollector}.
 *
 * <p>Threads: callers; the write thread (the only one that appends to the commit log and value
 * files or inserts into memtables); the flush thread; the compaction thread (compactions, value
 * GC and checkpoints, one at a time); a periodic sync timer and a value-file sync helper. Lock
 * order: the version set's state lock, then its manifest lock, then its file references.
 * Thread-safety: every public method may be called from any thread.
 */
final class DbImpl implements Engine, TableOps {
    static final int MAX_KEY_BYTES = 64 * 1024;
    static final int MAX_VALUE_BYTES = 512 << 20;
    static final int MAX_TABLES = 65535;
    /** Subdirectories of the fast tier. */
    static final String ROW_CACHE_DIRECTORY = "row-cache";
    static final String CATALOGUE_DIRECTORY = "catalogue";

    private final EngineOptions options;
    private final FileSystem fs;
    private final Lifecycle lifecycle = new Lifecycle();
    private final EngineCounters counters = new EngineCounters();
    private final TableFiles files;
    private final VersionSet versions;
    private final ValueStore values;
    private final SnapshotList snapshots;
    private final TreeReader reader;
    private final Flusher flusher;
    private final CommitPipeline pipeline;
    private final Compactor compactor;
    private final ValueGc valueGc;
    private final DeadValueReclaimer reclaimer;
    private final Checkpointer checkpointer;
    private final ConcurrentHashMap<String, TableImpl> tablesByName = new ConcurrentHashMap<>();
    private final AutoCloseable directoryLock;

    // Set once by open; null when disabled.
    private RowCache rowCache;
    private SchemaCatalogue catalogue;

    private DbImpl(EngineOptions options, AutoCloseable directoryLock) {
        this.options = options;
        this.fs = options.fileSystem();
        this.directoryLock = directoryLock;
        Path dir = options.directory();
        Tiers tiers = new Tiers(options);
        SSTableOptions tableOptions = SSTableOptions.builder().blockBytes(options.blockBytes()).build();
        this.files = new TableFiles(fs, tiers, options.blockCacheBytes());
        this.versions = new VersionSet(fs, dir, files, lifecycle, true);
        this.values = new ValueStore(fs, tiers.valueDirectory(), options.valueFileBytes(), versions::newFileNumber);
        this.snapshots = new SnapshotList(versions::visibleSequence, this::deleteObsoleteValueFiles);
        this.reader = new TreeReader(versions, values, snapshots);
        this.flusher = new Flusher(fs, dir, tiers, tableOptions, versions, values, snapshots, lifecycle, counters);
        SpacePressure pressure = new SpacePressure();
        this.pipeline = new CommitPipeline(options, versions, values, reader, lifecycle, counters, flusher::schedule,
                pressure);
        this.compactor = new Compactor(options, tiers, tableOptions, versions, values, snapshots, lifecycle, counters);
        this.valueGc = new ValueGc(fs, tiers, versions, values, snapshots, pipeline, reader, lifecycle, counters);
        this.reclaimer = new DeadValueReclaimer(fs, versions, values, snapshots, reader, pipeline, pressure,
                this::flushAndMarkValues, lifecycle);
        pressure.onPassWanted(() -> compactor.runInBackground("giving back dead values' space", () -> {
            reclaimer.runIfDue();
            return null;
        }));
        this.checkpointer = new Checkpointer(fs, dir, tiers, versions, values, pipeline, compactor);
        versions.onSuperVersionDeath(this::deleteObsoleteValueFiles);
        flusher.afterEachFlush(compactor::schedule);
        compactor.afterCompactions(() -> {
            valueGc.collectNow(options.valueGcGarbageRatio());
            return null;
        });
    }

    /**
     * Freezes the memtable and waits until every frozen one is flushed, so that recovery replays
     * no log record written before; returns where the next value will go, as
     * {@link ValueStore#appendPosition}.
     */
    private long[] flushAndMarkValues() throws IOException {
        long[] position = (long[]) pipeline.submitTask(() -> {
            pipeline.freezeIfNotEmpty();
            return values.appendPosition(versions.peekNextFileNumber());
        });
        flusher.awaitNoImmutables();
        return position;
    }

    /** A snapshot or super version went: value files, and dead values' blocks, may be free to go. */
    private void deleteObsoleteValueFiles() {
        valueGc.deleteObsoleteFiles();
        reclaimer.askIfWaiting();
    }

    // ---------------------------------------------------------------- open and close

    static Engine open(EngineOptions options) throws IOException {
        FileSystem fs = options.fileSystem();
        Path dir = options.directory();
        boolean hasCurrent = fs.exists(dir.resolve(FileNames.CURRENT));
        if (!hasCurrent) {
            List<String> names = fs.exists(dir) ? fs.list(dir) : List.of();
            List<String> foreign = names.stream().filter(n -> !n.equals(FileNames.LOCK)).sorted().toList();
            if (!foreign.isEmpty()) {
                throw new IOException(dir + " is not a Cairn engine directory (no " + FileNames.CURRENT
                        + " file, but it holds " + foreign.subList(0, Math.min(5, foreign.size())) + ")");
            }
            if (!options.createIfMissing()) {
                throw new IOException("no Cairn engine in " + dir + " and createIfMissing is false");
            }
            fs.createDirectories(dir);
        }
        fs.createDirectories(options.capacityDirectory());
        AutoCloseable lock = fs.lock(dir.resolve(FileNames.LOCK));
        DbImpl db = new DbImpl(options, lock);
        Recovery.Recovered recovered;
        try {
            recovered = new Recovery(options, new Tiers(options), db.versions, db.values).recover(hasCurrent, db.flusher);
            for (var t : db.versions.manifest().tables().entrySet()) {
                db.tablesByName.put(t.getKey(), new TableImpl(db, t.getKey(), t.getValue()));
            }
            db.catalogue = Recovery.openCatalogue(options, false);
            db.rowCache = Recovery.openRowCache(options);
        } catch (IOException | RuntimeException e) {
            db.closeQuietlyAfterFailedOpen();
            throw e;
        }
        db.pipeline.start(recovered.log(), recovered.lastSequence(), db.rowCache);
        db.compactor.schedule();
        return db;
    }

    /** Flushes nothing, syncs the commit log, stops the threads, closes every file and releases the lock. */
    @Override
    public void close() throws IOException {
        if (lifecycle.isClosed()) {
            return;
        }
        IOException failure = null;
        try {
            pipeline.syncNow();
        } catch (IOException e) {
            failure = e;
        }
        lifecycle.markClosed();
        pipeline.stop();
        flusher.shutdownNow();
        compactor.shutdownNow();
        try {
            flusher.awaitTermination(60);
            compactor.awaitTermination(60);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            pipeline.closeLog();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        try {
            values.close();
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        try {
            if (rowCache != null) {
                rowCache.close();
            }
            if (catalogue != null) {
                catalogue.close();
            }
        } catch (IOException e) {
            failure = failure == null ? e : failure;
        }
        IOException readers = files.closeAll();
        failure = failure == null ? readers : failure;
        try {
            directoryLock.close();
        } catch (Exception e) {
            failure = failure == null ? new IOException(e) : failure;
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void closeQuietlyAfterFailedOpen() {
        lifecycle.markClosed();
        flusher.shutdownNow();
        compactor.shutdownNow();
        // Every failure below is dropped: the open already failed, and its error is what the caller needs.
        try {
            pipeline.closeLog();
        } catch (IOException ignored) {
            // See above.
        }
        files.closeAll();
        try {
            values.close();
        } catch (IOException ignored) {
            // See above.
        }
        try {
            if (catalogue != null) {
                catalogue.close();
            }
            directoryLock.close();
        } catch (Exception ignored) {
            // See above.
        }
    }

    /** Waits until rows evicted from memory so far have reached the SSD tier or been refused (tests). */
    boolean awaitRowCacheCascades(java.time.Duration timeout) throws InterruptedException {
        return rowCache == null || rowCache.awaitCascades(timeout);
    }

    // ---------------------------------------------------------------- tables

    @Override
    public Table table(String name) throws IOException {
        if (name == null || name.isEmpty() || name.length() > 200) {
            throw new IllegalArgumentException("table names are 1..200 characters");
        }
        TableImpl existing = tablesByName.get(name);
        if (existing != null) {
            return existing;
        }
        return (Table) pipeline.submitTask(() -> {
            TableImpl again = tablesByName.get(name);
            if (again != null) {
                return again;
            }
            int id;
            synchronized (versions.manifestLock()) {
                ManifestState manifest = versions.manifest();
                id = manifest.tables().values().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
                if (id > MAX_TABLES) {
                    throw new IOException("too many tables (" + MAX_TABLES + ")");
                }
                versions.writeManifest(manifest.withTable(name, id));
            }
            TableImpl created = new TableImpl(this, name, id);
            tablesByName.put(name, created);
            return created;
        });
    }

    private TableImpl own(Table table) {
        if (!(table instanceof TableImpl t) || t.db() != this) {
            throw new IllegalArgumentException("table " + table + " does not belong to this engine");
        }
        return t;
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void write(WriteBatch batch) throws IOException {
        lifecycle.checkOpen();
        if (batch.isEmpty()) {
            return;
        }
        for (WriteBatch.Op op : batch.ops()) {
            own(op.table());
            if (op.key().length > MAX_KEY_BYTES) {
                throw new IllegalArgumentException("key of " + op.key().length + " bytes exceeds " + MAX_KEY_BYTES);
            }
            if (op.value() != null && op.value().length > MAX_VALUE_BYTES) {
                throw new IllegalArgumentException("value of " + op.value().length + " bytes exceeds " + MAX_VALUE_BYTES);
            }
        }
        pipeline.submit(batch);
    }

    /** Encodes a row through the schema catalogue; a new schema id is durable before the row is written. */
    @Override
    public byte[] encodeRow(TableImpl table, Row row) throws IOException {
        if (!options.catalogueRows()) {
            return RowCodec.encodeSelfDescribing(row);
        }
        return RowCodec.encode(table.name(), row, catalogue);
    }

    @Override
    public Row decodeRow(byte[] encoded) throws CorruptionException {
        return RowCodec.decode(encoded, catalogue);
    }

    // ---------------------------------------------------------------- reads

    @Override
    public byte[] get(TableImpl table, byte[] key, ReadOptions readOptions) throws IOException {
        lifecycle.checkOpen();
        own(table);
        RowCache cache = rowCache;
        if (cache == null || readOptions.snapshot() != null) {
            return reader.get(table.id(), key, readOptions);
        }
        byte[] cacheKey = Keys.filterKey(table.id(), key);
        RowCache.Lookup lookup = cache.lookup(cacheKey, readOptions);
        if (lookup.hit()) {
            return lookup.value();
        }
        byte[] value = reader.get(table.id(), key, readOptions);
        if (value != null && readOptions.fillCache()) {
            cache.fill(cacheKey, value, lookup.stamp());
        }
        return value;
    }

    @Override
    public EntryIterator scan(TableImpl table, KeyRange range, ReadOptions readOptions) throws IOException {
        lifecycle.checkOpen();
        own(table);
        return reader.scan(table.id(), range, readOptions);
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

    // ---------------------------------------------------------------- maintenance

    @Override
    public void flush() throws IOException {
        lifecycle.checkOpen();
        pipeline.submitTask(() -> {
            pipeline.freezeIfNotEmpty();
            return null;
        });
        flusher.awaitNoImmutables();
    }

    @Override
    public void compactAll() throws IOException {
        flush();
        compactor.runOnCompactionThread(() -> {
            compactor.compactAllNow();
            return null;
        });
    }

    @Override
    public void collectValueGarbage(double minGarbageRatio) throws IOException {
        if (!(minGarbageRatio > 0 && minGarbageRatio <= 1)) {
            throw new IllegalArgumentException("minGarbageRatio must be in (0, 1], got " + minGarbageRatio);
        }
        compactor.runOnCompactionThread(() -> {
            valueGc.collectNow(minGarbageRatio);
            return null;
        });
    }

    @Override
    public void checkpoint(Path target) throws IOException {
        lifecycle.checkOpen();
        if (fs.exists(target)) {
            throw new IOException("checkpoint target " + target + " already exists");
        }
        flush();
        checkpointer.checkpoint(target);
    }

    @Override
    public EngineStats stats() {
        return StatsCollector.collect(versions, values, counters, rowCache, catalogue);
    }
}
