package dev.cairn.engine.internal;

import dev.cairn.engine.DiskFullException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.sstable.SSTableOptions;
import dev.cairn.engine.sstable.WriteThrottle;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Flushes: writes the oldest frozen memtable to level-0 SSTables on the flush thread, records
 * them and the new log start in the manifest, installs the new version and deletes commit logs
 * no memtable needs any more.
 *
 * <p>Thread-safety: flushes run on the single flush thread, one at a time; {@link #flush} may
 * be called from any thread and waits on the versions' {@code flushDone} condition.
 */
final class Flusher {
    private final FileSystem fs;
    private final Path dir;
    private final Tiers tiers;
    private final SSTableOptions tableOptions;
    private final VersionSet versions;
    private final ValueStore values;
    private final SnapshotList snapshots;
    private final Lifecycle lifecycle;
    private final EngineCounters counters;
    /** How long a flush that failed for want of space waits before it tries again. */
    private static final long NO_SPACE_RETRY_MILLIS = 1000;
    private static final System.Logger LOG = System.getLogger(Flusher.class.getName());
    private final ExecutorService flushExecutor = Executors2.newSingle("cairn-flush");
    private Runnable afterFlush = () -> { };

    Flusher(FileSystem fs, Path dir, Tiers tiers, SSTableOptions tableOptions, VersionSet versions, ValueStore values,
            SnapshotList snapshots, Lifecycle lifecycle, EngineCounters counters) {
        this.fs = fs;
        this.dir = dir;
        this.tiers = tiers;
        this.tableOptions = tableOptions;
        this.versions = versions;
        this.values = values;
        this.snapshots = snapshots;
        this.lifecycle = lifecycle;
        this.counters = counters;
    }

    /** Runs on the flush thread after each flush (schedules compaction). Set once, before any flush. */
    void afterEachFlush(Runnable action) {
        this.afterFlush = action;
    }

    /** Queues a flush of the oldest frozen memtable. */
    void schedule() {
        flushExecutor.execute(this::flushOldest);
    }

    /** Waits until no frozen memtable is left (the caller froze the active one first). */
    void awaitNoImmutables() throws IOException {
        versions.lock().lock();
        try {
            while (!versions.immutables().isEmpty()) {
                if (lifecycle.backgroundError() != null) {
                    throw new IOException("background flush failed", lifecycle.backgroundError());
                }
                versions.flushDone().await(100, TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for flush");
        } finally {
            versions.lock().unlock();
        }
    }

    /** Interrupts the thread's current work and accepts no more; see {@link #awaitTermination}. */
    void shutdownNow() {
        flushExecutor.shutdownNow();
    }

    void awaitTermination(long seconds) throws InterruptedException {
        flushExecutor.awaitTermination(seconds, TimeUnit.SECONDS);
    }

    /** Writes a recovered or frozen memtable to level-0 files; the caller records them. */
    MergeJob.Output writeLevel0(Memtable memtable, long smallestSnapshot) throws IOException {
        MergeJob.Output out = new MergeJob(fs, tiers.tableDirectory(0), tableOptions, WriteLifetime.MEDIUM,
                WriteThrottle.NONE, Long.MAX_VALUE, versions::newFileNumber)
                .run(new MemtableIterator(memtable), smallestSnapshot, k -> false);
        versions.files().openAll(out.files(), tiers.tableDirectory(0));
        return out;
    }

    private void flushOldest() {
        if (lifecycle.isClosed()) {
            return;
        }
        try {
            Memtable oldest;
            Memtable newerOrActive;
            versions.lock().lock();
            try {
                List<Memtable> immutables = versions.immutables();
                if (immutables.isEmpty()) {
                    return;
                }
                oldest = immutables.get(immutables.size() - 1);
                newerOrActive = immutables.size() > 1 ? immutables.get(immutables.size() - 2) : versions.mem();
            } finally {
                versions.lock().unlock();
            }
            MergeJob.Output out = writeLevel0(oldest, snapshots.smallest());
            versions.lock().lock();
            try {
                synchronized (versions.manifestLock()) {
                    values.addGarbage(out.garbage());
                    ManifestState manifest = versions.manifest();
                    List<List<FileMeta>> levels = VersionSet.withLevel0Added(manifest.levels(), out.files());
                    try {
                        versions.writeManifest(manifest.withLevels(levels)
                                .withLog(newerOrActive.logNumber(), versions.visibleSequence())
                                .withValueFiles(values.garbageByFile()));
                    } catch (IOException | RuntimeException e) {
                        deleteUnrecorded(out.files(), e);
                        throw e;
                    }
                    versions.immutables().remove(oldest);
                    versions.installVersion(levels);
                }
                versions.flushDone().signalAll();
            } finally {
                versions.lock().unlock();
            }
            counters.flushes.incrementAndGet();
            deleteObsoleteLogs(newerOrActive.logNumber());
            afterFlush.run();
        } catch (IOException | RuntimeException e) {
            if (DiskFullException.isNoSpace(e) && !lifecycle.isClosed()) {
                // Not fatal: the failed job deleted its output; try again once space may have come back.
                LOG.log(System.Logger.Level.WARNING, "flush postponed, the disk is full: " + e.getMessage());
                versions.signalFlushDone();
                retryLater();
                return;
            }
            versions.failBackground(e);
        }
    }

    private void retryLater() {
        try {
            Thread.sleep(NO_SPACE_RETRY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (!lifecycle.isClosed()) {
            schedule();
        }
    }

    /** Deletes tables the manifest did not take, so that a retry does not leave them behind. */
    private void deleteUnrecorded(List<FileMeta> files, Exception failure) {
        for (FileMeta f : files) {
            try {
                fs.delete(FileNames.table(tiers.tableDirectory(0), f.number()));
            } catch (IOException e) {
                failure.addSuppressed(e);
            }
        }
    }

    private void deleteObsoleteLogs(long keepFrom) throws IOException {
        for (String name : fs.list(dir)) {
            if (FileNames.kind(name) == FileNames.Kind.LOG && FileNames.number(name).orElseThrow() < keepFrom) {
                fs.delete(dir.resolve(name));
            }
        }
    }
}
