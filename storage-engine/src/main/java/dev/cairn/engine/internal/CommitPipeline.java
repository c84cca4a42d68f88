package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.DiskFullException;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.SyncPolicy;
import dev.cairn.engine.WriteBatch;
import dev.cairn.engine.WriteStallException;
import dev.cairn.engine.cache.RowCache;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The write path: one write thread takes every batch waiting in the {@link WriteQueue}, appends
 * their values to the value file and one record to the commit log, syncs once for the whole
 * group (as the {@link SyncPolicy} says), then inserts into the active memtable and publishes the
 * new sequence. It freezes the memtable when full (stalling writers while flushes fall behind)
 * and applies value GC's relocations.
 *
 * <p>Thread-safety: {@link #submit}, {@link #submitTask} and {@link #submitRelocations} may be
 * called from any thread and block until the write thread has done the work. Every other field
 * (the log writer, the last sequence) belongs to the write thread alone; tasks run on it.
 */
final class CommitPipeline {
    static final String LOG_MAGIC = "CAIRNLOG";
    /** DO NOT CHANGE without a migration: embedded in on-disk data. */
    static final int LOG_FORMAT_VERSION = 1;
    /** Writes stall when level 0 holds this many times the compaction trigger. */
    static final int LEVEL0_STOP_FACTOR = 3;
    /**
     * How far the log is kept ahead of its records in durable zeros: the sync of a group then
     * writes data only, where an append would also have the file system commit the file's new
     * length and blocks to its journal, a second device write and flush on every group.
     */
    static final long LOG_ZERO_FILL_BYTES = 4 << 20;
    private static final int MAX_GROUP_OPS = 4096;
    private static final long MAX_GROUP_BYTES = 8 << 20;
    private static final byte[] EMPTY = new byte[0];
    private static final System.Logger LOG = System.getLogger(CommitPipeline.class.getName());

    private final EngineOptions options;
    private final FileSystem fs;
    private final Path dir;
    private final VersionSet versions;
    private final ValueStore values;
    private final TreeReader reader;
    private final Lifecycle lifecycle;
    private final EngineCounters counters;
    private final Runnable scheduleFlush;
    private final WriteQueue queue = new WriteQueue();
    private final Thread writeThread;
    private final ScheduledExecutorService syncTimer;
    private final ExecutorService syncExecutor;
    private final DiskSpaceGuard diskSpace;
    private final SpacePressure pressure;

    // Write thread only (set by recovery before it starts).
    private RecordFile.Writer log;
    private long lastSequence;
    private boolean logDirty;
    private RowCache rowCache;
    private volatile IOException writeError;

    CommitPipeline(EngineOptions options, VersionSet versions, ValueStore values, TreeReader reader,
                   Lifecycle lifecycle, EngineCounters counters, Runnable scheduleFlush, SpacePressure pressure) {
        this.pressure = pressure;
        this.options = options;
        this.fs = options.fileSystem();
        this.dir = options.directory();
        this.versions = versions;
        this.values = values;
        this.reader = reader;
        this.lifecycle = lifecycle;
        this.counters = counters;
        this.scheduleFlush = scheduleFlush;
        this.writeThread = new Thread(this::writeLoop, "cairn-write");
        this.writeThread.setDaemon(true);
        this.syncTimer = Executors2.newScheduled("cairn-sync-timer");
        this.syncExecutor = Executors2.newSingle("cairn-value-sync");
        this.diskSpace = new DiskSpaceGuard(options, pressure);
    }

    static RecordFile.Writer createLog(FileSystem fs, Path dir, long number) throws IOException {
        return new RecordFile.Writer(fs, FileNames.log(dir, number), LOG_MAGIC, LOG_FORMAT_VERSION, WriteLifetime.SHORT,
                LOG_ZERO_FILL_BYTES);
    }

    /** Starts the write thread on the log recovery opened, after {@code lastSequence}. */
    void start(RecordFile.Writer openLog, long lastSequence, RowCache rowCache) {
        this.log = openLog;
        this.lastSequence = lastSequence;
        this.rowCache = rowCache;
        writeThread.start();
        if (options.syncPolicy() == SyncPolicy.PERIODIC) {
            long micros = options.syncInterval().toNanos() / 1000;
            syncTimer.scheduleWithFixedDelay(this::periodicSync, micros, micros, TimeUnit.MICROSECONDS);
        }
    }

    void submit(WriteBatch batch) throws IOException {
        queue.submitBatch(batch);
    }

    Object submitTask(WriteQueue.Task task) throws IOException {
        return queue.submitTask(task);
    }

    void submitRelocations(List<Relocation> relocations) throws IOException {
        queue.submitRelocations(relocations);
    }

    /** Syncs the value file and, if written since, the log; returns once durable. */
    void syncNow() throws IOException {
        queue.submitTask(() -> {
            syncLogNow();
            return null;
        });
    }

    /** Stops the write thread after the queued requests; later requests fail. */
    void stop() {
        syncTimer.shutdownNow();
        queue.close();
        syncExecutor.shutdown();
        try {
            writeThread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the log; after {@link #stop} (or when the write thread never started). */
    void closeLog() throws IOException {
        syncTimer.shutdownNow();
        syncExecutor.shutdownNow();
        if (log != null) {
            log.close();
        }
    }

    private void writeLoop() {
        while (true) {
            WriteQueue.Request first;
            try {
                first = queue.take(lifecycle.isClosed());
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
                    group = diskSpace.admit(group);
                    commit(group);
                } catch (IOException e) {
                    failure = e;
                    if (DiskFullException.isNoSpace(e)) {
                        failure = new DiskFullException("the disk filled while a write was being appended (more than "
                                + "the reserve was taken by something else); the engine stopped accepting writes: "
                                + "free space and reopen it");
                        failure.initCause(e);
                        writeError = failure;
                    } else if (!(e instanceof WriteStallException)) {
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
        int deletes = 0;
        for (WriteQueue.Request r : group) {
            if (r instanceof WriteQueue.BatchRequest b) {
                for (WriteBatch.Op op : b.batch().ops()) {
                    int tableId = ((TableImpl) op.table()).id();
                    userBytes += op.key().length + (op.value() == null ? 0 : op.value().length);
                    deletes += op.value() == null ? 1 : 0;
                    ops.add(logged(tableId, op.key(), op.value()));
                }
            } else if (r instanceof WriteQueue.RelocateRequest rel) {
                for (Relocation m : rel.relocations()) {
                    if (stillPointsAt(m)) {
                        ensureValueFile();
                        ValuePointer p = values.append(Keys.filterKey(m.tableId(), m.userKey()), m.value());
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
        Memtable mem = versions.mem();
        for (int i = 0; i < ops.size(); i++) {
            BatchCodec.LoggedOp op = ops.get(i);
            mem.add(InternalKeys.encode(op.tableId(), op.key(), first + i, op.kind()), op.value());
        }
        lastSequence = first + ops.size() - 1;
        versions.setVisibleSequence(lastSequence);
        if (rowCache != null) {
            // Relocations by value GC leave values unchanged; everything else drops the cached row.
            for (WriteQueue.Request r : group) {
                if (r instanceof WriteQueue.BatchRequest b) {
                    for (WriteBatch.Op op : b.batch().ops()) {
                        rowCache.invalidate(Keys.filterKey(((TableImpl) op.table()).id(), op.key()));
                    }
                }
            }
        }
        counters.userBytesWritten.addAndGet(userBytes);
        pressure.deleted(deletes);
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
            ValuePointer p = values.append(Keys.filterKey(tableId, key), value);
            return new BatchCodec.LoggedOp(InternalKeys.KIND_VALUE_POINTER, tableId, key, p.encode());
        }
        return new BatchCodec.LoggedOp(InternalKeys.KIND_VALUE, tableId, key, value);
    }

    /** Starts a new value file when needed; it is in the manifest before any pointer to it is logged. */
    private void ensureValueFile() throws IOException {
        if (values.needsNewFile()) {
            values.rotate(values.reserveNumber());
            fs.syncDirectory(dir);
            synchronized (versions.manifestLock()) {
                versions.writeManifest(versions.manifest().withValueFiles(values.garbageByFile()));
            }
        }
    }

    private void makeRoomForWrite() throws IOException {
        if (versions.mem().approximateBytes() < options.memtableBytes()) {
            return;
        }
        long deadline = System.nanoTime() + options.writeStallTimeout().toNanos();
        int level0Stop = options.level0CompactionTrigger() * LEVEL0_STOP_FACTOR;
        versions.lock().lock();
        try {
            boolean stalled = false;
            while (versions.immutables().size() >= options.maxImmutableMemtables()
                    || versions.version().level(0).size() >= level0Stop) {
                if (lifecycle.backgroundError() != null) {
                    throw new IOException("background flush or compaction failed", lifecycle.backgroundError());
                }
                if (!stalled) {
                    stalled = true;
                    counters.writeStalls.incrementAndGet();
                }
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new WriteStallException("write stalled for " + options.writeStallTimeout()
                            + " waiting for flushes and compactions to catch up");
                }
                try {
                    versions.flushDone().awaitNanos(remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while stalled");
                }
            }
            switchMemtable();
        } finally {
            versions.lock().unlock();
        }
    }

    /** Freezes a non-empty active memtable so that it gets flushed. Write thread only (a task). */
    void freezeIfNotEmpty() throws IOException {
        versions.lock().lock();
        try {
            if (!versions.mem().isEmpty()) {
                switchMemtable();
            }
        } finally {
            versions.lock().unlock();
        }
    }

    /** REQUIRES: the versions' lock held, on the write thread. */
    private void switchMemtable() throws IOException {
        long newLog = versions.newFileNumber();
        RecordFile.Writer next = createLog(fs, dir, newLog);
        values.sync();
        log.sync();
        log.close();
        logDirty = false;
        log = next;
        log.sync();
        fs.syncDirectory(dir);
        versions.freezeMemtable(new Memtable(newLog));
        scheduleFlush.run();
    }

    private void periodicSync() {
        if (lifecycle.isClosed()) {
            return;
        }
        try {
            syncNow();
        } catch (IOException e) {
            if (!lifecycle.isClosed()) {
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
        TreeReader.RawValue raw = reader.latest(m.tableId(), m.userKey());
        return raw != null && raw.kind() == InternalKeys.KIND_VALUE_POINTER && Arrays.equals(raw.value(), m.oldPointer());
    }
}
