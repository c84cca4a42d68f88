package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.vlog.ValueFileScanner;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Value garbage collection: for each value file whose garbage ratio is high enough, moves the
 * values still live into the active value file (through the write thread, which applies a move
 * only if the key still points at the old place), drops the file from the manifest, and deletes
 * it once no snapshot and no super version can still read it.
 *
 * <p>Thread-safety: {@link #collectNow} runs on the compaction thread only;
 * {@link #deleteObsoleteFiles} may run on any thread (pending deletes are a concurrent list and
 * each is removed by exactly one thread).
 */
final class ValueGc {
    private static final long RELOCATION_BATCH_BYTES = 4 << 20;
    private static final System.Logger LOG = System.getLogger(ValueGc.class.getName());

    private record PendingDelete(long fileNumber, long sequence, long superVersionBound) {
    }

    private final FileSystem fs;
    private final Tiers tiers;
    private final VersionSet versions;
    private final ValueStore values;
    private final SnapshotList snapshots;
    private final CommitPipeline pipeline;
    private final TreeReader reader;
    private final Lifecycle lifecycle;
    private final EngineCounters counters;
    private final CopyOnWriteArrayList<PendingDelete> pendingDeletes = new CopyOnWriteArrayList<>();

    ValueGc(FileSystem fs, Tiers tiers, VersionSet versions, ValueStore values, SnapshotList snapshots,
            CommitPipeline pipeline, TreeReader reader, Lifecycle lifecycle, EngineCounters counters) {
        this.reader = reader;
        this.fs = fs;
        this.tiers = tiers;
        this.versions = versions;
        this.values = values;
        this.snapshots = snapshots;
        this.pipeline = pipeline;
        this.lifecycle = lifecycle;
        this.counters = counters;
    }

    /** Collects every value file with at least {@code ratio} garbage. Compaction thread only. */
    void collectNow(double ratio) throws IOException {
        for (long number : values.gcCandidates(ratio)) {
            if (lifecycle.isClosed()) {
                return;
            }
            relocateLiveValues(number);
            pipeline.syncNow();
            long sequence = versions.visibleSequence();
            synchronized (versions.manifestLock()) {
                values.remove(number);
                versions.writeManifest(versions.manifest().withValueFiles(values.garbageByFile()));
            }
            versions.lock().lock();
            try {
                versions.publishSuperVersion();
            } finally {
                versions.lock().unlock();
            }
            pendingDeletes.add(new PendingDelete(number, sequence, versions.lastReplacedSuperVersion()));
            counters.valueGcRuns.incrementAndGet();
            deleteObsoleteFiles();
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
                if (e.reclaimed()) {
                    checkDead(number, tableId, Arrays.copyOfRange(key, 2, key.length), e.pointer());
                    continue;
                }
                batch.add(new Relocation(tableId, Arrays.copyOfRange(key, 2, key.length), e.pointer().encode(), e.value()));
                batchBytes += e.value().length;
                if (batchBytes >= RELOCATION_BATCH_BYTES) {
                    pipeline.submitRelocations(List.copyOf(batch));
                    batch.clear();
                    batchBytes = 0;
                }
            }
        }
        if (!batch.isEmpty()) {
            pipeline.submitRelocations(List.copyOf(batch));
        }
    }

    /**
     * A reclaimed record's value is gone; that must be because it is dead. A row still pointing at
     * it is damage (a block of it was lost), and the file is kept rather than deleted under it.
     */
    private void checkDead(long number, int tableId, byte[] userKey, ValuePointer pointer) throws IOException {
        TreeReader.RawValue raw = reader.latest(tableId, userKey);
        if (raw != null && raw.kind() == InternalKeys.KIND_VALUE_POINTER) {
            ValuePointer current = ValuePointer.decodeStored(raw.value(), "a table entry");
            if (current.fileNumber() == number && current.offset() == pointer.offset()) {
                throw new CorruptionException("value file " + FileNames.value(tiers.valueDirectory(), number)
                        + ": the value at offset " + pointer.offset() + " is still referenced but fails its checksum"
                        + " with a block of zeros in it");
            }
        }
    }

    /** Deletes collected files that no open snapshot and no live super version can read any more. */
    void deleteObsoleteFiles() {
        if (pendingDeletes.isEmpty()) {
            return;
        }
        long oldestSnapshot = snapshots.smallest();
        long oldestLive = versions.oldestLiveSuperVersion();
        for (PendingDelete d : pendingDeletes) {
            if (oldestSnapshot >= d.sequence() && oldestLive > d.superVersionBound()) {
                if (pendingDeletes.remove(d)) {
                    try {
                        values.deleteFile(d.fileNumber());
                    } catch (IOException e) {
                        LOG.log(System.Logger.Level.WARNING, "could not delete value file " + d.fileNumber() + ": " + e);
                    }
                }
            }
        }
    }
}
