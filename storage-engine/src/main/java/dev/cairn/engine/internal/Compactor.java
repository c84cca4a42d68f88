package dev.cairn.engine.internal;

import dev.cairn.engine.DiskFullException;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.sstable.SSTableOptions;
import dev.cairn.engine.sstable.TokenBucketThrottle;
import dev.cairn.engine.sstable.WriteThrottle;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Compactions: picks work with the {@link CompactionPicker}, merges the inputs into new files
 * of the output level (a lone file whose level below is empty just moves), and replaces them in
 * the version set. The compaction thread also runs value GC after compactions, and the work
 * that {@link #runOnCompactionThread} hands it (checkpoints, manual compactions and GC).
 *
 * <p>Thread-safety: everything but {@link #schedule} and {@link #runOnCompactionThread} runs on
 * the single compaction thread, so two compactions never overlap.
 */
final class Compactor {
    private static final System.Logger LOG = System.getLogger(Compactor.class.getName());
    /** Work for the compaction thread. */
    interface IoTask {
        Object run() throws IOException;
    }

    private final EngineOptions options;
    private final FileSystem fs;
    private final Tiers tiers;
    private final SSTableOptions tableOptions;
    private final WriteThrottle throttle;
    private final CompactionPicker picker;
    private final VersionSet versions;
    private final ValueStore values;
    private final SnapshotList snapshots;
    private final Lifecycle lifecycle;
    private final EngineCounters counters;
    private final ExecutorService compactionExecutor = Executors2.newSingle("cairn-compaction");
    private IoTask afterCompactions = () -> null;

    Compactor(EngineOptions options, Tiers tiers, SSTableOptions tableOptions, VersionSet versions, ValueStore values,
              SnapshotList snapshots, Lifecycle lifecycle, EngineCounters counters) {
        this.options = options;
        this.fs = options.fileSystem();
        this.tiers = tiers;
        this.tableOptions = tableOptions;
        this.throttle = options.compactionBytesPerSecond() == 0
                ? WriteThrottle.NONE : new TokenBucketThrottle(options.compactionBytesPerSecond());
        this.picker = new CompactionPicker(options);
        this.versions = versions;
        this.values = values;
        this.snapshots = snapshots;
        this.lifecycle = lifecycle;
        this.counters = counters;
    }

    /** Runs on the compaction thread once no compaction is left to pick (value GC). Set once, before scheduling. */
    void afterCompactions(IoTask task) {
        this.afterCompactions = task;
    }

    void schedule() {
        if (!lifecycle.isClosed()) {
            compactionExecutor.execute(this::backgroundCompaction);
        }
    }

    /** Queues {@code task} on the compaction thread without waiting; a failure is logged, not fatal. */
    void runInBackground(String what, IoTask task) {
        if (lifecycle.isClosed()) {
            return;
        }
        compactionExecutor.execute(() -> {
            if (lifecycle.isClosed()) {
                return;
            }
            try {
                task.run();
            } catch (IOException | RuntimeException e) {
                if (!lifecycle.isClosed()) {
                    LOG.log(System.Logger.Level.WARNING, what + " failed, tried again when next due: " + e);
                }
            }
        });
    }

    Object runOnCompactionThread(IoTask task) throws IOException {
        lifecycle.checkOpen();
        return Futures.await(compactionExecutor.submit(task::run), "the compaction thread");
    }

    /** Interrupts the thread's current work and accepts no more; see {@link #awaitTermination}. */
    void shutdownNow() {
        compactionExecutor.shutdownNow();
    }

    void awaitTermination(long seconds) throws InterruptedException {
        compactionExecutor.awaitTermination(seconds, TimeUnit.SECONDS);
    }

    private void backgroundCompaction() {
        if (lifecycle.isClosed() || lifecycle.backgroundError() != null) {
            return;
        }
        try {
            Compaction c;
            while (!lifecycle.isClosed() && (c = picker.pick(currentVersion())) != null) {
                run(c);
            }
            if (!lifecycle.isClosed()) {
                afterCompactions.run();
            }
        } catch (IOException | RuntimeException e) {
            if (DiskFullException.isNoSpace(e)) {
                // Not fatal: the failed job deleted its output, and the next flush schedules compaction again.
                LOG.log(System.Logger.Level.WARNING, "compaction postponed, the disk is full: " + e.getMessage());
            } else if (!lifecycle.isClosed()) {
                versions.failBackground(e);
            }
        }
    }

    private Version currentVersion() {
        versions.lock().lock();
        try {
            return versions.version();
        } finally {
            versions.lock().unlock();
        }
    }

    /** Compacts everything down to the deepest non-empty level. Compaction thread only. */
    void compactAllNow() throws IOException {
        Compaction c;
        while ((c = picker.pick(currentVersion())) != null) {
            run(c);
        }
        List<List<FileMeta>> levels = versions.currentLevels();
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
            mergeInto(upper, levels.get(deepest), deepest, k -> true);
        }
    }

    private static WriteLifetime lifetimeForLevel(int level) {
        return switch (level) {
            case 0 -> WriteLifetime.MEDIUM;
            case 1 -> WriteLifetime.LONG;
            default -> WriteLifetime.EXTREME;
        };
    }

    private void run(Compaction c) throws IOException {
        if (c.level() > 0 && c.next().isEmpty() && c.inputs().size() == 1 && tiers.sameTier(c.level(), c.outputLevel())) {
            FileMeta f = c.inputs().get(0);
            versions.replaceFiles(Set.of(f.number()), c.outputLevel(), List.of(f), Map.of(), values);
            return;
        }
        List<List<FileMeta>> levelsNow = versions.currentLevels();
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
        if (c.level() == 0) {
            mergeInto(c.inputs(), c.next(), c.outputLevel(), isBase);
        } else {
            mergeLevel(c.inputs(), c.next(), c.outputLevel(), isBase);
        }
    }

    /** Merges separate files (level 0, or any set of upper files) with a sorted lower run. */
    private void mergeInto(List<FileMeta> upper, List<FileMeta> bottom, int outputLevel, Predicate<byte[]> isBase)
            throws IOException {
        List<InternalIterator> children = new ArrayList<>();
        for (FileMeta f : upper) {
            children.add(new TableFileIterator(versions.files().reader(f.number()), false));
        }
        merge(children, upper, bottom, outputLevel, isBase);
    }

    /** Merges a sorted run of one level (level 1 and deeper) with the overlapping run below. */
    private void mergeLevel(List<FileMeta> inputs, List<FileMeta> bottom, int outputLevel, Predicate<byte[]> isBase)
            throws IOException {
        List<InternalIterator> children = new ArrayList<>();
        children.add(new LevelIterator(inputs, versions.files()::reader, false));
        merge(children, inputs, bottom, outputLevel, isBase);
    }

    private void merge(List<InternalIterator> children, List<FileMeta> upper, List<FileMeta> bottom, int outputLevel,
                       Predicate<byte[]> isBase) throws IOException {
        if (!bottom.isEmpty()) {
            children.add(new LevelIterator(bottom, versions.files()::reader, false));
        }
        MergeJob.Output out;
        try (MergingIterator merged = new MergingIterator(children)) {
            out = new MergeJob(fs, tiers.tableDirectory(outputLevel), tableOptions, lifetimeForLevel(outputLevel),
                    throttle, options.targetFileBytes(), versions::newFileNumber)
                    .run(merged, snapshots.smallest(), isBase);
        }
        versions.files().openAll(out.files(), tiers.tableDirectory(outputLevel));
        Set<Long> removed = new HashSet<>();
        upper.forEach(f -> removed.add(f.number()));
        bottom.forEach(f -> removed.add(f.number()));
        versions.replaceFiles(removed, outputLevel, out.files(), out.garbage(), values);
        counters.compactions.incrementAndGet();
        counters.compactionBytesWritten.addAndGet(out.bytesWritten());
    }
}
