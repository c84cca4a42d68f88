package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.EngineStats;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Snapshot;
import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
import dev.cairn.engine.WriteStallException;
import dev.cairn.engine.cache.RowCache;
import dev.cairn.engine.cache.RowCacheOptions;
import dev.cairn.engine.cache.SsdCache;
import dev.cairn.engine.cache.SsdCacheOptions;
import dev.cairn.engine.Row;
import dev.cairn.engine.row.RowCodec;
import dev.cairn.engine.row.SchemaCatalogue;
import dev.cairn.engine.row.SchemaCatalogueOptions;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.sstable.BlockCache;
import dev.cairn.engine.sstable.SSTableOptions;
import dev.cairn.engine.sstable.SSTableReader;
import dev.cairn.engine.sstable.TokenBucketThrottle;
import dev.cairn.engine.sstable.WriteThrottle;
import dev.cairn.engine.vlog.ValueFileScanner;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * The engine's orchestrator: open and recovery, the write path (one write thread doing group
 * commit), the read path (memtable, frozen memtables, then SSTables level by level, then the
 * value file), flushes, compactions and value garbage collection in the background.
 *
 * <p>Threads: callers; the write thread (the only one that appends to the commit log and value
 * files or inserts into memtables); the flush thread; the compaction thread (compactions, value
 * GC and checkpoints, one at a time). Lock order: {@code stateLock} before {@code manifestLock}
 * before {@code fileRefs}.
 */
public final class DbImpl implements Engine {
    static final String LOG_MAGIC = "CAIRNLOG";
    /** DO NOT CHANGE without a migration: embedded in on-disk data. */
    static final int LOG_FORMAT_VERSION = 1;
    static final int MAX_KEY_BYTES = 64 * 1024;
    static final int MAX_VALUE_BYTES = 512 << 20;
    static final int MAX_TABLES = 65535;
    /** Subdirectories of the fast tier. */
    static final String ROW_CACHE_DIRECTORY = "row-cache";
    static final String CATALOGUE_DIRECTORY = "catalogue";
    /** Writes stall when level 0 holds this many times the compaction trigger. */
    static final int LEVEL0_STOP_FACTOR = 3;
    private static final int MAX_GROUP_OPS = 4096;
    private static final long MAX_GROUP_BYTES = 8 << 20;
    private static final long RELOCATION_BATCH_BYTES = 4 << 20;
    private static final byte[] EMPTY = new byte[0];
    private static final System.Logger LOG = System.getLogger(DbImpl.class.getName());

    private final EngineOptions options;
    private final FileSystem fs;
    private final Path dir;
    private final Tiers tiers;
    private final ConcurrentHashMap<Long, Path> tablePaths = new ConcurrentHashMap<>();
    private final SSTableOptions tableOptions;
    private final BlockCache blockCache;
    private final WriteThrottle compactionThrottle;
    private final ManifestStore manifestStore;
    private final CompactionPicker picker;
    private final AtomicLong nextFileNumber = new AtomicLong(1);
    private final ValueStore values;
    private final SnapshotList snapshots;
    private final WriteQueue queue = new WriteQueue();
    private final ConcurrentHashMap<String, TableImpl> tablesByName = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, SSTableReader> readers = new ConcurrentHashMap<>();
    private final Map<Long, Integer> fileRefs = new HashMap<>();
    private final ConcurrentSkipListSet<Long> liveSuperVersions = new ConcurrentSkipListSet<>();
    private final CopyOnWriteArrayList<PendingValueDelete> pendingValueDeletes = new CopyOnWriteArrayList<>();
    private final AtomicLong superVersionIds = new AtomicLong();
    private final AtomicReference<SuperVersion> current = new AtomicReference<>();
    private final ReentrantLock stateLock = new ReentrantLock();
    private final Condition flushDone = stateLock.newCondition();
    private final Object manifestLock = new Object();

    // Guarded by manifestLock.
    private ManifestState manifest;
    // Guarded by stateLock.
    private Memtable mem;
    private final List<Memtable> immutables = new ArrayList<>();
    private Version version;
    // Write thread only.
    private RecordFile.Writer log;
    private long lastSequence;
    private boolean logDirty;

    // Set once by recovery; null when disabled.
    private RowCache rowCache;
    private SchemaCatalogue catalogue;

    private volatile long visibleSequence;
    private volatile IOException writeError;
    private volatile IOException backgroundError;
    private volatile boolean closed;

    private final AutoCloseable directoryLock;
    private final Thread writeThread;
    private final ExecutorService flushExecutor;
    private final ExecutorService compactionExecutor;
    private final ScheduledExecutorService syncTimer;
    private final ExecutorService syncExecutor;

    private final AtomicLong userBytesWritten = new AtomicLong();
    private final AtomicLong flushes = new AtomicLong();
    private final AtomicLong compactions = new AtomicLong();
    private final AtomicLong compactionBytesWritten = new AtomicLong();
    private final AtomicLong valueGcRuns = new AtomicLong();
    private final AtomicLong writeStalls = new AtomicLong();

    private record PendingValueDelete(long fileNumber, long sequence, long superVersionBound) {
    }

    private DbImpl(EngineOptions options, AutoCloseable directoryLock) {
        this.options = options;
        this.fs = options.fileSystem();
        this.dir = options.directory();
        this.tiers = new Tiers(options);
        this.directoryLock = directoryLock;
        this.tableOptions = SSTableOptions.builder().blockBytes(options.blockBytes()).build();
        this.blockCache = new BlockCache(options.blockCacheBytes());
        this.compactionThrottle = options.compactionBytesPerSecond() == 0
                ? WriteThrottle.NONE : new TokenBucketThrottle(options.compactionBytesPerSecond());
        this.manifestStore = new ManifestStore(fs, dir);
        this.picker = new CompactionPicker(options);
        this.values = new ValueStore(fs, tiers.valueDirectory(), options.valueFileBytes(),
                nextFileNumber::getAndIncrement);
        this.snapshots = new SnapshotList(() -> visibleSequence, this::deleteObsoleteValueFiles);
        this.writeThread = new Thread(this::writeLoop, "cairn-write");
        this.writeThread.setDaemon(true);
        this.flushExecutor = Executors.newSingleThreadExecutor(daemon("cairn-flush"));
        this.compactionExecutor = Executors.newSingleThreadExecutor(daemon("cairn-compaction"));
        this.syncTimer = Executors.newSingleThreadScheduledExecutor(daemon("cairn-sync-timer"));
        this.syncExecutor = Executors.newSingleThreadExecutor(daemon("cairn-value-sync"));
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    // ---------------------------------------------------------------- open and recovery

    public static Engine open(EngineOptions options) throws IOException {
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
        try {
            db.recover(hasCurrent);
        } catch (IOException | RuntimeException e) {
            db.closeQuietlyAfterFailedOpen();
            throw e;
        }
        db.writeThread.start();
        if (options.syncPolicy() == SyncPolicy.PERIODIC) {
            long micros = options.syncInterval().toNanos() / 1000;
            db.syncTimer.scheduleWithFixedDelay(db::periodicSync, micros, micros, TimeUnit.MICROSECONDS);
        }
        db.scheduleCompaction();
        return db;
    }

    private void openCaches() throws IOException {
        catalogue = SchemaCatalogue.open(SchemaCatalogueOptions.builder(dir.resolve(CATALOGUE_DIRECTORY))
                .fileSystem(fs).build());
        if (options.rowCacheBytes() == 0) {
            return;
        }
        RowCacheOptions cacheOptions = RowCacheOptions.builder().memoryBytes(options.rowCacheBytes()).build();
        if (options.ssdCacheBytes() == 0) {
            rowCache = RowCache.memoryOnly(cacheOptions);
            return;
        }
        long segment = Math.max(SsdCacheOptions.MIN_SEGMENT_BYTES,
                Math.min(SsdCacheOptions.DEFAULT_SEGMENT_BYTES, options.ssdCacheBytes() / 8));
        SsdCache ssd = SsdCache.open(SsdCacheOptions.builder(dir.resolve(ROW_CACHE_DIRECTORY)).fileSystem(fs)
                .segmentBytes(segment).capacityBytes(Math.max(options.ssdCacheBytes(), 2 * segment)).build());
        rowCache = RowCache.tiered(cacheOptions, ssd);
    }

    private void recover(boolean existing) throws IOException {
        ManifestState state;
        if (existing) {
            state = manifestStore.read();
        } else {
            state = ManifestState.empty();
        }
        long maxOnDisk = 0;
        List<String> names = fs.list(dir);
        for (Path tier : tierDirectories()) {
            for (String name : fs.list(tier)) {
                maxOnDisk = Math.max(maxOnDisk, FileNames.number(name).orElse(0));
            }
        }
        nextFileNumber.set(Math.max(state.nextFileNumber(), maxOnDisk + 1));
        for (Map.Entry<String, Integer> t : state.tables().entrySet()) {
            tablesByName.put(t.getKey(), new TableImpl(this, t.getKey(), t.getValue()));
        }
        for (List<FileMeta> level : state.levels()) {
            for (FileMeta f : level) {
                openReader(f.number(), locateTable(f.number()));
            }
        }
        for (Map.Entry<Long, Long> v : state.valueFiles().entrySet()) {
            if (!fs.exists(FileNames.value(tiers.valueDirectory(), v.getKey()))) {
                throw new CorruptionException("value file " + FileNames.value(tiers.valueDirectory(), v.getKey())
                        + " is listed in the manifest but missing");
            }
            values.addSealed(v.getKey(), v.getValue());
        }
        mem = new Memtable(0);
        version = newVersion(state.levels());
        lastSequence = state.lastSequence();

        // Replay the commit log into a memtable, then flush it, so a crash leaves nothing half-applied.
        List<Long> logs = new ArrayList<>();
        for (String name : names) {
            if (FileNames.kind(name) == FileNames.Kind.LOG) {
                long n = FileNames.number(name).orElseThrow();
                if (n >= state.logNumber()) {
                    logs.add(n);
                }
            }
        }
        logs.sort(Comparator.naturalOrder());
        Memtable recovered = new Memtable(0);
        manifest = state;
        for (int i = 0; i < logs.size(); i++) {
            boolean last = i == logs.size() - 1;
            if (!replay(FileNames.log(dir, logs.get(i)), recovered, last)) {
                break;
            }
        }
        visibleSequence = lastSequence;
        manifest = state;

        long newLog = nextFileNumber.getAndIncrement();
        log = new RecordFile.Writer(fs, FileNames.log(dir, newLog), LOG_MAGIC, LOG_FORMAT_VERSION, WriteLifetime.SHORT);
        log.sync();
        fs.syncDirectory(dir);
        List<List<FileMeta>> levels = state.levels();
        Map<Long, Long> garbage = Map.of();
        if (!recovered.isEmpty()) {
            MergeJob.Output out = new MergeJob(fs, tiers.tableDirectory(0), tableOptions, WriteLifetime.MEDIUM,
                    WriteThrottle.NONE, Long.MAX_VALUE, nextFileNumber::getAndIncrement)
                    .run(new MemtableIterator(recovered), lastSequence, k -> false);
            openReaders(out.files(), tiers.tableDirectory(0));
            levels = withLevel0Added(levels, out.files());
            garbage = out.garbage();
        }
        values.addGarbage(garbage);
        mem = new Memtable(newLog);
        synchronized (manifestLock) {
            writeManifest(manifest.withLevels(levels).withLog(newLog, lastSequence)
                    .withValueFiles(values.garbageByFile()));
        }
        stateLock.lock();
        try {
            installVersion(levels);
            publishSuperVersion();
        } finally {
            stateLock.unlock();
        }
        deleteUnlistedFiles();
        openCaches();
    }

    /** Replays one log; returns false when replay must stop here (a torn or invalid tail). */
    private boolean replay(Path path, Memtable into, boolean lastLog) throws IOException {
        RecordFile.Contents contents = RecordFile.read(fs, path, LOG_MAGIC, LOG_FORMAT_VERSION);
        List<byte[]> records = contents.records();
        for (int i = 0; i < records.size(); i++) {
            BatchCodec.Decoded batch = BatchCodec.decode(records.get(i), path.toString());
            boolean verifyValues = options.syncPolicy() == SyncPolicy.PERIODIC || (lastLog && i == records.size() - 1);
            if (!pointersValid(batch.ops(), verifyValues)) {
                LOG.log(System.Logger.Level.WARNING, "commit log " + path
                        + " refers to value bytes that never became durable; replay stops there");
                return false;
            }
            long seq = batch.firstSequence();
            for (BatchCodec.LoggedOp op : batch.ops()) {
                into.add(InternalKeys.encode(op.tableId(), op.key(), seq, op.kind()), op.value());
                seq++;
            }
            lastSequence = Math.max(lastSequence, seq - 1);
        }
        if (contents.damagedTail() && !lastLog) {
            throw new CorruptionException("commit log " + path + " is damaged at offset " + contents.validBytes()
                    + " but later logs exist");
        }
        return !contents.damagedTail();
    }

    /**
     * Whether the values a replayed record points at are durable. A pointer into a value file the
     * manifest no longer lists was superseded by value GC's relocation, logged and synced later.
     */
    private boolean pointersValid(List<BatchCodec.LoggedOp> ops, boolean verifyValues) throws IOException {
        for (BatchCodec.LoggedOp op : ops) {
            if (op.kind() == InternalKeys.KIND_VALUE_POINTER) {
                ValuePointer p = ValuePointer.decode(op.value());
                if (!manifest.valueFiles().containsKey(p.fileNumber())) {
                    continue;
                }
                Path file = FileNames.value(tiers.valueDirectory(), p.fileNumber());
                if (!fs.exists(file) || fs.size(file) < p.offset() + p.length()) {
                    return false;
                }
                if (verifyValues) {
                    try {
                        values.read(p);
                    } catch (CorruptionException e) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    private void deleteUnlistedFiles() throws IOException {
        ManifestState state;
        synchronized (manifestLock) {
            state = manifest;
        }
        java.util.Set<Long> liveTables = new java.util.HashSet<>();
        state.levels().forEach(l -> l.forEach(f -> liveTables.add(f.number())));
        for (Path tier : tierDirectories()) {
            for (String name : fs.list(tier)) {
                FileNames.Kind kind = FileNames.kind(name);
                long number = FileNames.number(name).orElse(-1);
                boolean obsolete = switch (kind) {
                    case TABLE -> !liveTables.contains(number) || !tier.resolve(name).equals(tablePaths.get(number));
                    case VALUE -> !state.valueFiles().containsKey(number) || !tier.equals(tiers.valueDirectory());
                    case LOG -> number < state.logNumber() || !tier.equals(dir);
                    case MANIFEST -> number != manifestStore.currentNumber() || !tier.equals(dir);
                    case TEMP -> true;
                    default -> false;
                };
                if (obsolete) {
                    fs.delete(tier.resolve(name));
                }
            }
        }
    }

    private void closeQuietlyAfterFailedOpen() {
        closed = true;
        flushExecutor.shutdownNow();
        compactionExecutor.shutdownNow();
        syncTimer.shutdownNow();
        syncExecutor.shutdownNow();
        try {
            if (log != null) {
                log.close();
            }
        } catch (IOException ignored) {
            // The open already failed; its error is what the caller needs.
        }
        for (SSTableReader r : readers.values()) {
            try {
                r.close();
            } catch (IOException ignored) {
                // As above.
            }
        }
        try {
            values.close();
        } catch (IOException ignored) {
            // As above.
        }
        try {
            directoryLock.close();
        } catch (Exception ignored) {
            // As above.
        }
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
        return (Table) queue.submitTask(() -> {
            TableImpl again = tablesByName.get(name);
            if (again != null) {
                return again;
            }
            int id;
            synchronized (manifestLock) {
                id = manifest.tables().values().stream().mapToInt(Integer::intValue).max().orElse(0) + 1;
                if (id > MAX_TABLES) {
                    throw new IOException("too many tables (" + MAX_TABLES + ")");
                }
                writeManifest(manifest.withTable(name, id));
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

    // ---------------------------------------------------------------- write path

    @Override
    public void write(WriteBatch batch) throws IOException {
        checkOpen();
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
        queue.submitBatch(batch);
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("engine is closed");
        }
    }

    private void writeLoop() {
        while (true) {
            WriteQueue.Request first;
            try {
                first = queue.take(closed);
            } catch (InterruptedException e) {
                return;
            }
            if (first == null) {
                return;
            }
            if (first instanceof WriteQueue.TaskRequest task) {
                task.run();
                continue;
            }
            List<WriteQueue.Request> group = new ArrayList<>();
            group.add(first);
            if (first instanceof WriteQueue.BatchRequest) {
                queue.drainBatchesInto(group, MAX_GROUP_OPS, MAX_GROUP_BYTES);
            }
            IOException failure = writeError;
            if (failure == null) {
                try {
                    commit(group);
                } catch (IOException e) {
                    failure = e;
                    if (!(e instanceof WriteStallException)) {
                        writeError = e;
                    }
                } catch (RuntimeException | Error e) {
                    failure = new IOException("write failed: " + e, e);
                    writeError = failure;
                }
            } else {
                failure = new IOException("the engine stopped accepting writes after an I/O error; reopen it to recover",
                        failure);
            }
            for (WriteQueue.Request r : group) {
                if (failure == null) {
                    r.complete(null);
                } else {
                    r.fail(failure);
                }
            }
        }
    }

    private void commit(List<WriteQueue.Request> group) throws IOException {
        makeRoomForWrite();
        List<BatchCodec.LoggedOp> ops = new ArrayList<>();
        long userBytes = 0;
        for (WriteQueue.Request r : group) {
            if (r instanceof WriteQueue.BatchRequest b) {
                for (WriteBatch.Op op : b.batch().ops()) {
                    int tableId = own(op.table()).id();
                    userBytes += op.key().length + (op.value() == null ? 0 : op.value().length);
                    ops.add(logged(tableId, op.key(), op.value()));
                }
            } else if (r instanceof WriteQueue.RelocateRequest rel) {
                for (Relocation m : rel.relocations()) {
                    if (stillPointsAt(m)) {
                        ensureValueFile();
                        ValuePointer p = values.append(filterKey(m.tableId(), m.userKey()), m.value());
                        ops.add(new BatchCodec.LoggedOp(InternalKeys.KIND_VALUE_POINTER, m.tableId(), m.userKey(), p.encode()));
                    }
                }
            }
        }
        if (ops.isEmpty()) {
            return;
        }
        values.flush();
        long first = lastSequence + 1;
        log.append(BatchCodec.encode(first, ops));
        if (options.syncPolicy() == SyncPolicy.EVERY_WRITE) {
            syncBoth();
        } else {
            logDirty = true;
        }
        for (int i = 0; i < ops.size(); i++) {
            BatchCodec.LoggedOp op = ops.get(i);
            mem.add(InternalKeys.encode(op.tableId(), op.key(), first + i, op.kind()), op.value());
        }
        lastSequence = first + ops.size() - 1;
        visibleSequence = lastSequence;
        if (rowCache != null) {
            // Relocations by value GC leave values unchanged; everything else drops the cached row.
            for (WriteQueue.Request r : group) {
                if (r instanceof WriteQueue.BatchRequest b) {
                    for (WriteBatch.Op op : b.batch().ops()) {
                        rowCache.invalidate(filterKey(own(op.table()).id(), op.key()));
                    }
                }
            }
        }
        userBytesWritten.addAndGet(userBytes);
    }

    /**
     * Syncs the value file and the log at once. Only the group being synced can have a durable
     * log record whose values are not durable yet, and it is the log's last record: recovery
     * checks the values of that record alone.
     */
    private void syncBoth() throws IOException {
        if (!values.hasUnsynced()) {
            log.sync();
            return;
        }
        Future<Void> valueSync = syncExecutor.submit(() -> {
            values.sync();
            return null;
        });
        try {
            log.sync();
        } finally {
            Futures.await(valueSync, "the value file sync");
        }
    }

    private BatchCodec.LoggedOp logged(int tableId, byte[] key, byte[] value) throws IOException {
        if (value == null) {
            return new BatchCodec.LoggedOp(InternalKeys.KIND_DELETE, tableId, key, EMPTY);
        }
        if (value.length >= options.valueThreshold()) {
            ensureValueFile();
            ValuePointer p = values.append(filterKey(tableId, key), value);
            return new BatchCodec.LoggedOp(InternalKeys.KIND_VALUE_POINTER, tableId, key, p.encode());
        }
        return new BatchCodec.LoggedOp(InternalKeys.KIND_VALUE, tableId, key, value);
    }

    static byte[] filterKey(int tableId, byte[] userKey) {
        byte[] k = new byte[2 + userKey.length];
        k[0] = (byte) (tableId >>> 8);
        k[1] = (byte) tableId;
        System.arraycopy(userKey, 0, k, 2, userKey.length);
        return k;
    }

    /** Starts a new value file when needed; it is in the manifest before any pointer to it is logged. */
    private void ensureValueFile() throws IOException {
        if (values.needsNewFile()) {
            values.rotate(values.reserveNumber());
            fs.syncDirectory(dir);
            synchronized (manifestLock) {
                writeManifest(manifest.withValueFiles(values.garbageByFile()));
            }
        }
    }

    private void makeRoomForWrite() throws IOException {
        if (mem.approximateBytes() < options.memtableBytes()) {
            return;
        }
        long deadline = System.nanoTime() + options.writeStallTimeout().toNanos();
        int level0Stop = options.level0CompactionTrigger() * LEVEL0_STOP_FACTOR;
        stateLock.lock();
        try {
            boolean stalled = false;
            while (immutables.size() >= options.maxImmutableMemtables() || version.level(0).size() >= level0Stop) {
                if (backgroundError != null) {
                    throw new IOException("background flush or compaction failed", backgroundError);
                }
                if (!stalled) {
                    stalled = true;
                    writeStalls.incrementAndGet();
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new WriteStallException("write stalled for " + options.writeStallTimeout()
                            + " waiting for flushes and compactions to catch up");
                }
                try {
                    flushDone.awaitNanos(remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while stalled");
                }
            }
            switchMemtable();
        } finally {
            stateLock.unlock();
        }
    }

    /** REQUIRES: stateLock held, on the write thread. */
    private void switchMemtable() throws IOException {
        long newLog = nextFileNumber.getAndIncrement();
        RecordFile.Writer next = new RecordFile.Writer(fs, FileNames.log(dir, newLog), LOG_MAGIC, LOG_FORMAT_VERSION,
                WriteLifetime.SHORT);
        values.sync();
        log.sync();
        log.close();
        logDirty = false;
        log = next;
        log.sync();
        fs.syncDirectory(dir);
        immutables.add(0, mem);
        mem = new Memtable(newLog);
        publishSuperVersion();
        flushExecutor.execute(this::flushOldest);
    }

    private void periodicSync() {
        if (closed) {
            return;
        }
        try {
            queue.submitTask(() -> {
                syncLogNow();
                return null;
            });
        } catch (IOException e) {
            if (!closed) {
                LOG.log(System.Logger.Level.WARNING, "periodic sync failed: " + e);
            }
        }
    }

    /** Write thread only. */
    private void syncLogNow() throws IOException {
        values.sync();
        if (logDirty) {
            log.sync();
            logDirty = false;
        }
    }

    private boolean stillPointsAt(Relocation m) throws IOException {
        SuperVersion sv = acquire();
        try {
            RawValue raw = lookup(sv, InternalKeys.seekKey(m.tableId(), m.userKey(), visibleSequence), true);
            return raw != null && raw.kind == InternalKeys.KIND_VALUE_POINTER && Arrays.equals(raw.value, m.oldPointer());
        } finally {
            sv.unref();
        }
    }

    // ---------------------------------------------------------------- read path

    private SuperVersion acquire() {
        while (true) {
            SuperVersion sv = current.get();
            if (sv.tryRef()) {
                return sv;
            }
        }
    }

    private record RawValue(byte kind, byte[] value) {
    }

    byte[] get(TableImpl table, byte[] key, ReadOptions readOptions) throws IOException {
        checkOpen();
        own(table);
        RowCache cache = rowCache;
        if (cache == null || readOptions.snapshot() != null) {
            return getFromTree(table, key, readOptions);
        }
        byte[] cacheKey = filterKey(table.id(), key);
        RowCache.Lookup lookup = cache.lookup(cacheKey, readOptions);
        if (lookup.hit()) {
            return lookup.value();
        }
        byte[] value = getFromTree(table, key, readOptions);
        if (value != null && readOptions.fillCache()) {
            cache.fill(cacheKey, value, lookup.stamp());
        }
        return value;
    }

    private byte[] getFromTree(TableImpl table, byte[] key, ReadOptions readOptions) throws IOException {
        SuperVersion sv = acquire();
        try {
            long sequence = readSequence(readOptions);
            RawValue raw = lookup(sv, InternalKeys.seekKey(table.id(), key, sequence), readOptions.fillCache());
            if (raw == null || raw.kind == InternalKeys.KIND_DELETE) {
                return null;
            }
            return resolve(raw.kind, raw.value);
        } finally {
            sv.unref();
        }
    }

    /** REQUIRES: called after acquiring the super version, so every write up to it is in that view. */
    private long readSequence(ReadOptions readOptions) {
        Snapshot s = readOptions.snapshot();
        if (s == null) {
            return visibleSequence;
        }
        if (!(s instanceof SnapshotImpl impl) || !impl.belongsTo(snapshots)) {
            throw new IllegalArgumentException("snapshot does not belong to this engine");
        }
        return s.sequence();
    }

    private byte[] resolve(byte kind, byte[] value) throws IOException {
        if (kind == InternalKeys.KIND_VALUE_POINTER) {
            try {
                return values.read(ValuePointer.decode(value));
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
            List<FileMeta> files = levels.get(level);
            int i = findFile(files, seekKey);
            if (i < files.size() && Keys.userCompare(files.get(i).smallest(), seekKey) <= 0) {
                RawValue found = lookupInFile(files.get(i), seekKey, filterKey, fillCache);
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
        SSTableReader reader = reader(f.number());
        if (!reader.mayContain(filterKey)) {
            return null;
        }
        Entry e = reader.seekFirstAtOrAfter(seekKey, fillCache);
        if (e != null && InternalKeys.sameUserKey(e.key(), seekKey)) {
            return new RawValue(InternalKeys.kind(e.key()), e.value());
        }
        return null;
    }

    private SSTableReader reader(long number) {
        SSTableReader r = readers.get(number);
        if (r == null) {
            throw new IllegalStateException("no open reader for table file " + number);
        }
        return r;
    }

    EntryIterator scan(TableImpl table, KeyRange range, ReadOptions readOptions) throws IOException {
        checkOpen();
        own(table);
        SuperVersion sv = acquire();
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
            byte[] lo = range.start() == null ? null : InternalKeys.seekKey(table.id(), range.start(), InternalKeys.MAX_SEQUENCE);
            for (FileMeta f : levels.get(0)) {
                if (lo == null || Keys.userCompare(f.largest(), lo) >= 0) {
                    children.add(new TableFileIterator(reader(f.number()), readOptions.fillCache()));
                }
            }
            for (int level = 1; level < levels.size(); level++) {
                if (!levels.get(level).isEmpty()) {
                    children.add(new LevelIterator(levels.get(level), this::reader, readOptions.fillCache()));
                }
            }
            merged = new MergingIterator(children);
        } catch (RuntimeException e) {
            sv.unref();
            throw e;
        }
        // DbIterator releases the super version itself, also when its first seek fails.
        return new DbIterator(merged, table.id(), range, sequence, this::resolve, sv::unref);
    }

    /** Encodes a row through the schema catalogue; a new schema id is durable before the row is written. */
    byte[] encodeRow(TableImpl table, Row row) throws IOException {
        return RowCodec.encode(table.name(), row, catalogue);
    }

    Row decodeRow(byte[] encoded) throws CorruptionException {
        return RowCodec.decode(encoded, catalogue);
    }

    @Override
    public Snapshot snapshot() {
        return snapshots.take();
    }

    // ---------------------------------------------------------------- versions

    /** REQUIRES: stateLock held. */
    private void publishSuperVersion() {
        if (!version.tryRef()) {
            throw new IllegalStateException("current version is dead");
        }
        long id = superVersionIds.incrementAndGet();
        liveSuperVersions.add(id);
        SuperVersion sv = new SuperVersion(id, mem, List.copyOf(immutables), version, dead -> {
            liveSuperVersions.remove(dead.id);
            deleteObsoleteValueFiles();
        });
        SuperVersion old = current.getAndSet(sv);
        if (old != null) {
            old.unref();
        }
    }

    private Version newVersion(List<List<FileMeta>> levels) {
        Version[] holder = new Version[1];
        Version v = new Version(levels, () -> versionDied(holder[0]));
        holder[0] = v;
        synchronized (fileRefs) {
            for (List<FileMeta> level : levels) {
                for (FileMeta f : level) {
                    fileRefs.merge(f.number(), 1, Integer::sum);
                }
            }
        }
        return v;
    }

    /** REQUIRES: stateLock held. Replaces the current version. */
    private void installVersion(List<List<FileMeta>> levels) {
        Version old = version;
        version = newVersion(levels);
        publishSuperVersion();
        if (old != null) {
            old.unref();
        }
    }

    private void versionDied(Version v) {
        List<Long> obsolete = new ArrayList<>();
        synchronized (fileRefs) {
            for (List<FileMeta> level : v.levels()) {
                for (FileMeta f : level) {
                    if (fileRefs.merge(f.number(), -1, Integer::sum) == 0) {
                        fileRefs.remove(f.number());
                        obsolete.add(f.number());
                    }
                }
            }
        }
        for (long number : obsolete) {
            SSTableReader r = readers.remove(number);
            blockCache.invalidateFile(number);
            try {
                if (r != null) {
                    r.close();
                }
                if (!closed) {
                    Path path = tablePaths.remove(number);
                    if (path != null) {
                        fs.delete(path);
                    }
                }
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "could not delete obsolete table " + number + ": " + e);
            }
        }
    }

    private void openReaders(List<FileMeta> files, Path directory) throws IOException {
        for (FileMeta f : files) {
            openReader(f.number(), FileNames.table(directory, f.number()));
        }
    }

    private void openReader(long number, Path path) throws IOException {
        readers.put(number, SSTableReader.open(fs, path, number, blockCache));
        tablePaths.put(number, path);
    }

    /** An SSTable of the manifest: on the fast tier or the capacity tier. */
    private Path locateTable(long number) throws IOException {
        for (Path tier : tierDirectories()) {
            Path path = FileNames.table(tier, number);
            if (fs.exists(path)) {
                return path;
            }
        }
        throw new CorruptionException("table file " + FileNames.table(dir, number)
                + " is listed in the manifest but missing" + (tiers.split() ? " from both tiers" : ""));
    }

    private List<Path> tierDirectories() {
        return tiers.split() ? List.of(tiers.fast(), tiers.capacity()) : List.of(dir);
    }

    /** REQUIRES: manifestLock held. */
    private void writeManifest(ManifestState state) throws IOException {
        long number = nextFileNumber.getAndIncrement();
        ManifestState next = state.withNextFileNumber(nextFileNumber.get());
        manifestStore.write(next, number);
        manifest = next;
    }

    private static List<List<FileMeta>> withLevel0Added(List<List<FileMeta>> levels, List<FileMeta> newest) {
        List<List<FileMeta>> out = new ArrayList<>(levels);
        List<FileMeta> l0 = new ArrayList<>(newest);
        l0.addAll(levels.get(0));
        out.set(0, List.copyOf(l0));
        return List.copyOf(out);
    }

    // ---------------------------------------------------------------- flush

    private void flushOldest() {
        if (closed) {
            return;
        }
        try {
            Memtable oldest;
            Memtable newerOrActive;
            stateLock.lock();
            try {
                if (immutables.isEmpty()) {
                    return;
                }
                oldest = immutables.get(immutables.size() - 1);
                newerOrActive = immutables.size() > 1 ? immutables.get(immutables.size() - 2) : mem;
            } finally {
                stateLock.unlock();
            }
            MergeJob.Output out = new MergeJob(fs, tiers.tableDirectory(0), tableOptions, WriteLifetime.MEDIUM,
                    WriteThrottle.NONE, Long.MAX_VALUE, nextFileNumber::getAndIncrement)
                    .run(new MemtableIterator(oldest), snapshots.smallest(), k -> false);
            openReaders(out.files(), tiers.tableDirectory(0));
            stateLock.lock();
            try {
                synchronized (manifestLock) {
                    values.addGarbage(out.garbage());
                    List<List<FileMeta>> levels = withLevel0Added(manifest.levels(), out.files());
                    writeManifest(manifest.withLevels(levels).withLog(newerOrActive.logNumber(), visibleSequence)
                            .withValueFiles(values.garbageByFile()));
                    immutables.remove(oldest);
                    installVersion(levels);
                }
                flushDone.signalAll();
            } finally {
                stateLock.unlock();
            }
            flushes.incrementAndGet();
            deleteObsoleteLogs(newerOrActive.logNumber());
            scheduleCompaction();
        } catch (IOException | RuntimeException e) {
            failBackground(e);
        }
    }

    private void deleteObsoleteLogs(long keepFrom) throws IOException {
        for (String name : fs.list(dir)) {
            if (FileNames.kind(name) == FileNames.Kind.LOG && FileNames.number(name).orElseThrow() < keepFrom) {
                fs.delete(dir.resolve(name));
            }
        }
    }

    private void failBackground(Throwable e) {
        IOException io = e instanceof IOException x ? x : new IOException(e.toString(), e);
        if (backgroundError == null) {
            backgroundError = io;
        }
        LOG.log(System.Logger.Level.ERROR, "background work failed: " + e, e);
        stateLock.lock();
        try {
            flushDone.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    @Override
    public void flush() throws IOException {
        checkOpen();
        queue.submitTask(() -> {
            stateLock.lock();
            try {
                if (!mem.isEmpty()) {
                    switchMemtable();
                }
            } finally {
                stateLock.unlock();
            }
            return null;
        });
        stateLock.lock();
        try {
            while (!immutables.isEmpty()) {
                if (backgroundError != null) {
                    throw new IOException("background flush failed", backgroundError);
                }
                flushDone.await(100, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for flush");
        } finally {
            stateLock.unlock();
        }
    }

    // ---------------------------------------------------------------- compaction

    private void scheduleCompaction() {
        if (!closed) {
            compactionExecutor.execute(this::backgroundCompaction);
        }
    }

    private void backgroundCompaction() {
        if (closed || backgroundError != null) {
            return;
        }
        try {
            Compaction c;
            while (!closed && (c = pickCompaction()) != null) {
                runCompaction(c);
            }
            if (!closed) {
                collectGarbageNow(options.valueGcGarbageRatio());
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                failBackground(e);
            }
        }
    }

    private Compaction pickCompaction() {
        Version v;
        stateLock.lock();
        try {
            v = version;
        } finally {
            stateLock.unlock();
        }
        return picker.pick(v);
    }

    private static WriteLifetime lifetimeForLevel(int level) {
        return switch (level) {
            case 0 -> WriteLifetime.MEDIUM;
            case 1 -> WriteLifetime.LONG;
            default -> WriteLifetime.EXTREME;
        };
    }

    private void runCompaction(Compaction c) throws IOException {
        if (c.level() > 0 && c.next().isEmpty() && c.inputs().size() == 1 && tiers.sameTier(c.level(), c.outputLevel())) {
            moveFile(c.inputs().get(0), c.level(), c.outputLevel());
            return;
        }
        List<InternalIterator> children = new ArrayList<>();
        if (c.level() == 0) {
            for (FileMeta f : c.inputs()) {
                children.add(new TableFileIterator(reader(f.number()), false));
            }
        } else {
            children.add(new LevelIterator(c.inputs(), this::reader, false));
        }
        if (!c.next().isEmpty()) {
            children.add(new LevelIterator(c.next(), this::reader, false));
        }
        List<List<FileMeta>> levelsNow;
        stateLock.lock();
        try {
            levelsNow = version.levels();
        } finally {
            stateLock.unlock();
        }
        Predicate<byte[]> isBase = key -> {
            for (int level = c.outputLevel() + 1; level < levelsNow.size(); level++) {
                for (FileMeta f : levelsNow.get(level)) {
                    if (Keys.userCompare(key, f.smallest()) >= 0 && Keys.userCompare(key, f.largest()) <= 0) {
                        return false;
                    }
                }
            }
            return true;
        };
        MergeJob.Output out;
        try (MergingIterator merged = new MergingIterator(children)) {
            out = new MergeJob(fs, tiers.tableDirectory(c.outputLevel()), tableOptions,
                    lifetimeForLevel(c.outputLevel()), compactionThrottle, options.targetFileBytes(),
                    nextFileNumber::getAndIncrement)
                    .run(merged, snapshots.smallest(), isBase);
        }
        openReaders(out.files(), tiers.tableDirectory(c.outputLevel()));
        java.util.Set<Long> removed = new java.util.HashSet<>();
        c.inputs().forEach(f -> removed.add(f.number()));
        c.next().forEach(f -> removed.add(f.number()));
        replaceFiles(removed, c.outputLevel(), out.files(), out.garbage());
        compactions.incrementAndGet();
        compactionBytesWritten.addAndGet(out.bytesWritten());
    }

    private void moveFile(FileMeta f, int from, int to) throws IOException {
        replaceFiles(java.util.Set.of(f.number()), to, List.of(f), Map.of());
    }

    private void replaceFiles(java.util.Set<Long> removed, int outputLevel, List<FileMeta> added,
                              Map<Long, Long> garbage) throws IOException {
        stateLock.lock();
        try {
            synchronized (manifestLock) {
                List<List<FileMeta>> levels = new ArrayList<>();
                for (List<FileMeta> level : manifest.levels()) {
                    levels.add(level.stream().filter(f -> !removed.contains(f.number())).toList());
                }
                List<FileMeta> out = new ArrayList<>(levels.get(outputLevel));
                out.addAll(added);
                out.sort((a, b) -> InternalKeys.COMPARATOR.compare(a.smallest(), b.smallest()));
                levels.set(outputLevel, List.copyOf(out));
                values.addGarbage(garbage);
                List<List<FileMeta>> frozen = List.copyOf(levels);
                writeManifest(manifest.withLevels(frozen).withValueFiles(values.garbageByFile()));
                installVersion(frozen);
            }
            flushDone.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    @Override
    public void compactAll() throws IOException {
        flush();
        runOnCompactionThread(() -> {
            Compaction c;
            while ((c = pickCompaction()) != null) {
                runCompaction(c);
            }
            List<List<FileMeta>> levels;
            stateLock.lock();
            try {
                levels = version.levels();
            } finally {
                stateLock.unlock();
            }
            int deepest = 1;
            List<FileMeta> all = new ArrayList<>();
            for (int level = 0; level < levels.size(); level++) {
                if (!levels.get(level).isEmpty()) {
                    deepest = Math.max(deepest, level);
                    all.addAll(levels.get(level));
                }
            }
            if (all.size() > 1 || (all.size() == 1 && levels.get(deepest).isEmpty())) {
                List<FileMeta> upper = new ArrayList<>(all);
                upper.removeAll(levels.get(deepest));
                runMergeInto(upper, levels.get(deepest), deepest);
            }
            return null;
        });
    }

    private void runMergeInto(List<FileMeta> upper, List<FileMeta> bottom, int outputLevel) throws IOException {
        List<InternalIterator> children = new ArrayList<>();
        for (FileMeta f : upper) {
            children.add(new TableFileIterator(reader(f.number()), false));
        }
        if (!bottom.isEmpty()) {
            children.add(new LevelIterator(bottom, this::reader, false));
        }
        MergeJob.Output out;
        try (MergingIterator merged = new MergingIterator(children)) {
            out = new MergeJob(fs, tiers.tableDirectory(outputLevel), tableOptions, lifetimeForLevel(outputLevel),
                    compactionThrottle, options.targetFileBytes(), nextFileNumber::getAndIncrement)
                    .run(merged, snapshots.smallest(), k -> true);
        }
        openReaders(out.files(), tiers.tableDirectory(outputLevel));
        java.util.Set<Long> removed = new java.util.HashSet<>();
        upper.forEach(f -> removed.add(f.number()));
        bottom.forEach(f -> removed.add(f.number()));
        replaceFiles(removed, outputLevel, out.files(), out.garbage());
        compactions.incrementAndGet();
        compactionBytesWritten.addAndGet(out.bytesWritten());
    }

    private interface IoTask {
        Object run() throws IOException;
    }

    private Object runOnCompactionThread(IoTask task) throws IOException {
        checkOpen();
        return Futures.await(compactionExecutor.submit(() -> task.run()), "the compaction thread");
    }

    // ---------------------------------------------------------------- value garbage collection

    /** A live value to move out of a file being collected, applied only if still current. */
    record Relocation(int tableId, byte[] userKey, byte[] oldPointer, byte[] value) {
    }

    @Override
    public void collectValueGarbage(double minGarbageRatio) throws IOException {
        if (!(minGarbageRatio > 0 && minGarbageRatio <= 1)) {
            throw new IllegalArgumentException("minGarbageRatio must be in (0, 1], got " + minGarbageRatio);
        }
        runOnCompactionThread(() -> {
            collectGarbageNow(minGarbageRatio);
            return null;
        });
    }

    /** Compaction thread only. */
    private void collectGarbageNow(double ratio) throws IOException {
        for (long number : values.gcCandidates(ratio)) {
            if (closed) {
                return;
            }
            relocateLiveValues(number);
            queue.submitTask(() -> {
                syncLogNow();
                return null;
            });
            long sequence = visibleSequence;
            synchronized (manifestLock) {
                values.remove(number);
                writeManifest(manifest.withValueFiles(values.garbageByFile()));
            }
            stateLock.lock();
            try {
                publishSuperVersion();
            } finally {
                stateLock.unlock();
            }
            pendingValueDeletes.add(new PendingValueDelete(number, sequence, superVersionIds.get() - 1));
            valueGcRuns.incrementAndGet();
            deleteObsoleteValueFiles();
        }
    }

    private void relocateLiveValues(long number) throws IOException {
        List<Relocation> batch = new ArrayList<>();
        long batchBytes = 0;
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, FileNames.value(tiers.valueDirectory(), number), number, true)) {
            ValueFileScanner.Entry e;
            while ((e = scanner.next()) != null) {
                byte[] key = e.key();
                int tableId = (key[0] & 0xFF) << 8 | (key[1] & 0xFF);
                batch.add(new Relocation(tableId, Arrays.copyOfRange(key, 2, key.length), e.pointer().encode(), e.value()));
                batchBytes += e.value().length;
                if (batchBytes >= RELOCATION_BATCH_BYTES) {
                    queue.submitRelocations(List.copyOf(batch));
                    batch.clear();
                    batchBytes = 0;
                }
            }
        }
        if (!batch.isEmpty()) {
            queue.submitRelocations(List.copyOf(batch));
        }
    }

    private void deleteObsoleteValueFiles() {
        if (pendingValueDeletes.isEmpty()) {
            return;
        }
        long oldestSnapshot = snapshots.smallest();
        Long oldestLive = liveSuperVersions.isEmpty() ? Long.MAX_VALUE : liveSuperVersions.first();
        for (PendingValueDelete d : pendingValueDeletes) {
            if (oldestSnapshot >= d.sequence() && oldestLive > d.superVersionBound()) {
                if (pendingValueDeletes.remove(d)) {
                    try {
                        values.deleteFile(d.fileNumber());
                    } catch (IOException e) {
                        LOG.log(System.Logger.Level.WARNING, "could not delete value file " + d.fileNumber() + ": " + e);
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------- checkpoint, stats, close

    @Override
    public void checkpoint(Path target) throws IOException {
        checkOpen();
        if (fs.exists(target)) {
            throw new IOException("checkpoint target " + target + " already exists");
        }
        flush();
        runOnCompactionThread(() -> {
            queue.submitTask(() -> {
                values.sealForCheckpoint();
                return null;
            });
            ManifestState state;
            synchronized (manifestLock) {
                state = manifest;
            }
            Path temp = target.resolveSibling(target.getFileName() + FileNames.TEMP_SUFFIX);
            fs.createDirectories(temp);
            for (List<FileMeta> level : state.levels()) {
                for (FileMeta f : level) {
                    linkOrCopy(tablePaths.get(f.number()), FileNames.table(temp, f.number()));
                }
            }
            for (long number : state.valueFiles().keySet()) {
                linkOrCopy(FileNames.value(tiers.valueDirectory(), number), FileNames.value(temp, number));
            }
            // Copied, not linked: the catalogue's last segment is still appended to. Every id a row
            // of this checkpoint uses was durable before the row, so the copy holds it.
            Path catalogueDir = dir.resolve(CATALOGUE_DIRECTORY);
            fs.createDirectories(temp.resolve(CATALOGUE_DIRECTORY));
            for (String name : fs.list(catalogueDir)) {
                copy(catalogueDir.resolve(name), temp.resolve(CATALOGUE_DIRECTORY).resolve(name));
            }
            ManifestStore copy = new ManifestStore(fs, temp);
            long manifestNumber = state.nextFileNumber();
            copy.write(state.withLog(manifestNumber + 1, visibleSequence).withNextFileNumber(manifestNumber + 2),
                    manifestNumber);
            fs.syncDirectory(temp);
            fs.rename(temp, target);
            fs.syncDirectory(target.toAbsolutePath().getParent());
            return null;
        });
    }

    /** Hard links when the target is on the same file system; copies otherwise (another tier's disk). */
    private void linkOrCopy(Path source, Path target) throws IOException {
        try {
            fs.link(source, target);
        } catch (IOException linkFailed) {
            copy(source, target);
        }
    }

    private void copy(Path source, Path target) throws IOException {
        try (var in = fs.openRead(source); var out = fs.create(target, WriteLifetime.LONG)) {
            java.nio.ByteBuffer buffer = java.nio.ByteBuffer.allocate(1 << 20);
            long at = 0;
            long size = in.size();
            while (at < size) {
                buffer.clear();
                int n = in.read(at, buffer);
                if (n < 0) {
                    break;
                }
                buffer.flip();
                out.append(buffer);
                at += n;
            }
            out.sync();
        }
    }

    @Override
    public EngineStats stats() {
        SuperVersion sv = acquire();
        try {
            List<Integer> files = new ArrayList<>();
            List<Long> bytes = new ArrayList<>();
            long indexBytes = 0;
            long entries = 0;
            for (int level = 0; level < sv.version.levels().size(); level++) {
                files.add(sv.version.level(level).size());
                bytes.add(sv.version.levelBytes(level));
                for (FileMeta f : sv.version.level(level)) {
                    entries += f.entries();
                    SSTableReader r = readers.get(f.number());
                    if (r != null) {
                        indexBytes += r.memoryBytes();
                    }
                }
            }
            long memBytes = sv.mem.approximateBytes();
            for (Memtable m : sv.immutables) {
                memBytes += m.approximateBytes();
            }
            return new EngineStats(List.copyOf(files), List.copyOf(bytes), values.fileCount(), values.totalBytes(),
                    values.garbageBytes(), memBytes, indexBytes, entries, blockCache.hits(), blockCache.misses(),
                    userBytesWritten.get(), flushes.get(), compactions.get(), compactionBytesWritten.get(),
                    valueGcRuns.get(), writeStalls.get(), rowCache == null ? null : rowCache.stats(),
                    catalogue == null ? 0 : catalogue.schemaCount(), catalogue == null ? 0 : catalogue.valueCount());
        } finally {
            sv.unref();
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        IOException failure = null;
        try {
            queue.submitTask(() -> {
                syncLogNow();
                return null;
            });
        } catch (IOException e) {
            failure = e;
        }
        closed = true;
        syncTimer.shutdownNow();
        queue.close();
        syncExecutor.shutdown();
        try {
            writeThread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        flushExecutor.shutdownNow();
        compactionExecutor.shutdownNow();
        try {
            flushExecutor.awaitTermination(60, TimeUnit.SECONDS);
            compactionExecutor.awaitTermination(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            log.close();
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
        for (SSTableReader r : readers.values()) {
            try {
                r.close();
            } catch (IOException e) {
                failure = failure == null ? e : failure;
            }
        }
        try {
            directoryLock.close();
        } catch (Exception e) {
            failure = failure == null ? new IOException(e) : failure;
        }
        if (failure != null) {
            throw failure;
        }
    }

    boolean isClosed() {
        return closed;
    }
}
