package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.fs.FileSystem;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine's state over time: the durable manifest, the current {@link Version} of SSTables,
 * the active and frozen memtables, the {@link SuperVersion} that reads acquire, the reference
 * count of every table file, the file number counter and the last visible sequence.
 *
 * <p>Locks, always taken in this order: {@link #lock()} (guards the memtables and the current
 * version, with the {@link #flushDone()} condition), then {@link #manifestLock()} (guards the
 * manifest and serializes its rewrites), then the file reference counts (internal). Methods say
 * which lock they require; {@link #acquire()}, {@link #manifest()} and the sequence accessors
 * take none.
 */
final class VersionSet {
    private final ManifestStore manifestStore;
    private final TableFiles files;
    private final Lifecycle lifecycle;
    private final boolean deleteObsoleteFiles;
    private final AtomicLong nextFileNumber = new AtomicLong(1);
    private final ReentrantLock stateLock = new ReentrantLock();
    private final Condition flushDone = stateLock.newCondition();
    private final Object manifestLock = new Object();
    private final Map<Long, Integer> fileRefs = new HashMap<>();
    private final ConcurrentSkipListSet<Long> liveSuperVersions = new ConcurrentSkipListSet<>();
    private final AtomicLong superVersionIds = new AtomicLong();
    private final AtomicReference<SuperVersion> current = new AtomicReference<>();
    private volatile Runnable onSuperVersionDeath = () -> { };
    private volatile long visibleSequence;

    // Guarded by manifestLock.
    private ManifestState manifest;
    // Guarded by stateLock.
    private Memtable mem;
    private final List<Memtable> immutables = new ArrayList<>();
    private Version version;

    /**
     * @param deleteObsoleteFiles whether a table file no version references any more is deleted
     *                            (false for a read-only open, which never changes its directory)
     */
    VersionSet(FileSystem fs, Path dir, TableFiles files, Lifecycle lifecycle, boolean deleteObsoleteFiles) {
        this.manifestStore = new ManifestStore(fs, dir);
        this.files = files;
        this.lifecycle = lifecycle;
        this.deleteObsoleteFiles = deleteObsoleteFiles;
    }

    /** Runs whenever a super version dies (value GC waits for those that may read a deleted file). */
    void onSuperVersionDeath(Runnable listener) {
        this.onSuperVersionDeath = listener;
    }

    ManifestStore manifestStore() {
        return manifestStore;
    }

    TableFiles files() {
        return files;
    }

    /** The number {@link #newFileNumber} will hand out next (or a lower one than any it hands out later). */
    long peekNextFileNumber() {
        return nextFileNumber.get();
    }

    long newFileNumber() {
        return nextFileNumber.getAndIncrement();
    }

    /** Makes every later number at least {@code next}; used once, by recovery. */
    void reserveFileNumbersBelow(long next) {
        nextFileNumber.set(next);
    }

    long visibleSequence() {
        return visibleSequence;
    }

    /** Write thread (or recovery) only: every write up to {@code sequence} is in the memtables. */
    void setVisibleSequence(long sequence) {
        visibleSequence = sequence;
    }

    // ---------------------------------------------------------------- manifest

    Object manifestLock() {
        return manifestLock;
    }

    ManifestState manifest() {
        synchronized (manifestLock) {
            return manifest;
        }
    }

    /** Recovery only: the state read from disk, before anything else runs. */
    void setRecoveredManifest(ManifestState state) {
        synchronized (manifestLock) {
            manifest = state;
        }
    }

    /** REQUIRES: manifestLock held. Makes {@code state} durable and current. */
    void writeManifest(ManifestState state) throws IOException {
        long number = nextFileNumber.getAndIncrement();
        ManifestState next = state.withNextFileNumber(nextFileNumber.get());
        manifestStore.write(next, number);
        manifest = next;
    }

    // ---------------------------------------------------------------- memtables and versions

    ReentrantLock lock() {
        return stateLock;
    }

    /** Signalled under {@link #lock()} when a flush or compaction ends or background work fails. */
    Condition flushDone() {
        return flushDone;
    }

    void signalFlushDone() {
        stateLock.lock();
        try {
            flushDone.signalAll();
        } finally {
            stateLock.unlock();
        }
    }

    /** Records a background failure and wakes writers stalled on flushes. */
    void failBackground(Throwable e) {
        lifecycle.recordBackgroundError(e);
        signalFlushDone();
    }

    /** REQUIRES: lock held, or the write thread (the only thread that replaces the active memtable). */
    Memtable mem() {
        return mem;
    }

    /** REQUIRES: lock held. The frozen memtables, newest first; the caller may change the list. */
    List<Memtable> immutables() {
        return immutables;
    }

    /** REQUIRES: lock held. */
    Version version() {
        return version;
    }

    List<List<FileMeta>> currentLevels() {
        stateLock.lock();
        try {
            return version.levels();
        } finally {
            stateLock.unlock();
        }
    }

    /** Recovery only, before any reader: the memtable and the first version. */
    void initialize(Memtable active, List<List<FileMeta>> levels) {
        stateLock.lock();
        try {
            mem = active;
            version = newVersion(levels);
        } finally {
            stateLock.unlock();
        }
    }

    /** REQUIRES: lock held, on the write thread. Freezes the active memtable and starts {@code next}. */
    void freezeMemtable(Memtable next) {
        immutables.add(0, mem);
        mem = next;
        publishSuperVersion();
    }

    /** REQUIRES: lock held. Replaces the active memtable (recovery installs its own). */
    void setMemtable(Memtable active) {
        mem = active;
    }

    /** A reference to the current super version; the caller unrefs it. Never blocks. */
    SuperVersion acquire() {
        while (true) {
            SuperVersion sv = current.get();
            if (sv.tryRef()) {
                return sv;
            }
        }
    }

    /** REQUIRES: lock held. */
    void publishSuperVersion() {
        if (!version.tryRef()) {
            throw new IllegalStateException("current version is dead");
        }
        long id = superVersionIds.incrementAndGet();
        liveSuperVersions.add(id);
        SuperVersion sv = new SuperVersion(id, mem, List.copyOf(immutables), version, dead -> {
            liveSuperVersions.remove(dead.id);
            onSuperVersionDeath.run();
        });
        SuperVersion old = current.getAndSet(sv);
        if (old != null) {
            old.unref();
        }
    }

    /** The newest super version id that is already replaced; readers of it or older may still run. */
    long lastReplacedSuperVersion() {
        return superVersionIds.get() - 1;
    }

    /** The oldest super version still referenced, or {@link Long#MAX_VALUE}. */
    long oldestLiveSuperVersion() {
        return liveSuperVersions.isEmpty() ? Long.MAX_VALUE : liveSuperVersions.first();
    }

    /** REQUIRES: lock held. Replaces the current version. */
    void installVersion(List<List<FileMeta>> levels) {
        Version old = version;
        version = newVersion(levels);
        publishSuperVersion();
        if (old != null) {
            old.unref();
        }
    }

    /**
     * Takes the lock, then the manifest lock: removes {@code removed} files, adds {@code added}
     * to {@code outputLevel}, records value garbage, writes the manifest and installs the version.
     */
    void replaceFiles(Set<Long> removed, int outputLevel, List<FileMeta> added, Map<Long, Long> garbage,
                      ValueStore values) throws IOException {
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

    static List<List<FileMeta>> withLevel0Added(List<List<FileMeta>> levels, List<FileMeta> newest) {
        List<List<FileMeta>> out = new ArrayList<>(levels);
        List<FileMeta> l0 = new ArrayList<>(newest);
        l0.addAll(levels.get(0));
        out.set(0, List.copyOf(l0));
        return List.copyOf(out);
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
            files.release(number, deleteObsoleteFiles && !lifecycle.isClosed());
        }
    }
}
