package dev.cairn.engine.internal;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.vlog.ValueFileScanner;
import dev.cairn.engine.vlog.ValueHoles;
import dev.cairn.engine.vlog.ValuePointer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Gives dead values' space back in place while writes are refused for want of space: value GC
 * would have to copy a file's live part first, for which a full disk has no room. A pass finds
 * the values that no row points at any more and punches the whole blocks inside each
 * ({@link ValueHoles}, {@link FileSystem#punchHole}); their files keep their size and layout.
 *
 * <p>A value is punched only when nothing can read it again:
 * <ul>
 *   <li>no row points at it at the latest sequence (a value, once shadowed, is never pointed at
 *       again: relocation writes new copies), and what made it dead is durable (the log is synced
 *       after the lookups);
 *   <li>no snapshot reads at an older sequence, and no reader holds a super version from before
 *       the lookups (the same wait as before value GC deletes a file);
 *   <li>no commit log that recovery would replay points at it, since replay reads the values its
 *       records point at: the pass first flushes the memtable and considers only values appended
 *       before that flush;
 *   <li>its file has no other name: a checkpoint's hard link keeps every byte (the file system
 *       refuses, and checkpoints are taken on the same thread as the punching).
 * </ul>
 *
 * <p>Passes run on the compaction thread, when {@link SpacePressure} reports space short and
 * deletes since the last pass, at most a quarter of the time (each waits three times as long as
 * the one before took; one asked for sooner runs then). Compaction thread only.
 */
final class DeadValueReclaimer {
    private static final System.Logger LOG = System.getLogger(DeadValueReclaimer.class.getName());
    private static final long MIN_PAUSE_NANOS = 50_000_000L;

    /** Flushes the memtable and returns where the next value will be appended: see the class comment. */
    interface FlushedBoundary {
        long[] flushAndMark() throws IOException;
    }

    private record Pending(long fileNumber, List<long[]> ranges, long sequence, long superVersionBound) {
    }

    private final FileSystem fs;
    private final VersionSet versions;
    private final ValueStore values;
    private final SnapshotList snapshots;
    private final TreeReader reader;
    private final CommitPipeline pipeline;
    private final SpacePressure pressure;
    private final FlushedBoundary boundary;
    private final Lifecycle lifecycle;
    private final List<Pending> pending = new ArrayList<>();
    private volatile boolean waiting;
    private long deletesAtLastPass;
    private long nextPassNanos = System.nanoTime();

    DeadValueReclaimer(FileSystem fs, VersionSet versions, ValueStore values, SnapshotList snapshots,
                       TreeReader reader, CommitPipeline pipeline, SpacePressure pressure, FlushedBoundary boundary,
                       Lifecycle lifecycle) {
        this.fs = fs;
        this.versions = versions;
        this.values = values;
        this.snapshots = snapshots;
        this.reader = reader;
        this.pipeline = pipeline;
        this.pressure = pressure;
        this.boundary = boundary;
        this.lifecycle = lifecycle;
    }

    /** Punches what has become safe to punch, then runs a pass if one is due. */
    void runIfDue() throws IOException {
        pressure.passStarting();
        punchReady();
        long deletes = pressure.deletes();
        if (!pressure.full() || deletes == deletesAtLastPass) {
            return;
        }
        long wait = nextPassNanos - System.nanoTime();
        if (wait > 0) {
            pressure.requestAfter(wait);
            return;
        }
        long started = System.nanoTime();
        deletesAtLastPass = deletes;
        try {
            pass();
        } finally {
            long took = System.nanoTime() - started;
            nextPassNanos = System.nanoTime() + Math.max(MIN_PAUSE_NANOS, 3 * took);
        }
    }

    /** Each file in turn, those with the most garbage known first, its dead values punched before the next is read. */
    private void pass() throws IOException {
        long[] before = boundary.flushAndMark();
        List<Map.Entry<Long, Long>> files = new ArrayList<>(values.garbageByFile().entrySet());
        files.sort(Map.Entry.<Long, Long>comparingByValue().reversed());
        for (Map.Entry<Long, Long> file : files) {
            long number = file.getKey();
            if (number > before[0] || !values.contains(number) || lifecycle.isClosed()) {
                continue;
            }
            List<long[]> dead = deadValues(number, number == before[0] ? before[1] : Long.MAX_VALUE);
            if (!dead.isEmpty()) {
                punchOnceUnread(number, dead);
            }
        }
    }

    /** Records {@code dead} to be punched once nothing can read them, and punches what is ready. */
    private void punchOnceUnread(long number, List<long[]> dead) throws IOException {
        pipeline.syncNow();
        long sequence = versions.visibleSequence();
        long bound;
        versions.lock().lock();
        try {
            versions.publishSuperVersion();
            bound = versions.lastReplacedSuperVersion();
        } finally {
            versions.lock().unlock();
        }
        pending.add(new Pending(number, dead, sequence, bound));
        punchReady();
    }

    /** The punchable ranges of the dead values of file {@code number} recorded before {@code endOffset}. */
    private List<long[]> deadValues(long number, long endOffset) throws IOException {
        List<long[]> dead = new ArrayList<>();
        try (ValueFileScanner scanner = ValueFileScanner.open(fs, values.path(number), number, false)) {
            for (ValueFileScanner.Entry e; !lifecycle.isClosed() && (e = scanner.next()) != null
                    && e.recordOffset() < endOffset; ) {
                long length = ValueHoles.length(e.pointer());
                if (e.reclaimed() || length == 0 || e.key().length < 2 || isLive(e.key(), e.pointer())) {
                    continue;
                }
                dead.add(new long[] {ValueHoles.start(e.pointer()), length});
            }
        } catch (CorruptionException damaged) {
            LOG.log(System.Logger.Level.WARNING, "value file " + values.path(number)
                    + " is damaged; its dead values keep their space: " + damaged.getMessage());
        }
        return dead;
    }

    /** Whether the newest entry of the value's key points at exactly this value. */
    private boolean isLive(byte[] storedKey, ValuePointer pointer) throws IOException {
        int tableId = (storedKey[0] & 0xFF) << 8 | (storedKey[1] & 0xFF);
        TreeReader.RawValue raw = reader.latest(tableId, Arrays.copyOfRange(storedKey, 2, storedKey.length));
        if (raw == null || raw.kind() != InternalKeys.KIND_VALUE_POINTER) {
            return false;
        }
        ValuePointer current = ValuePointer.decodeStored(raw.value(), "a table entry");
        return current.fileNumber() == pointer.fileNumber() && current.offset() == pointer.offset();
    }

    /**
     * Asks for a run when punches wait for a snapshot or reader to go (any thread: called as
     * they go), so that their space does not wait for the next refused write or delete.
     */
    void askIfWaiting() {
        if (waiting) {
            pressure.ask();
        }
    }

    private void punchReady() {
        if (pending.isEmpty()) {
            return;
        }
        long oldestSnapshot = snapshots.smallest();
        long oldestLive = versions.oldestLiveSuperVersion();
        for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
            Pending p = it.next();
            if (oldestSnapshot < p.sequence() || oldestLive <= p.superVersionBound()) {
                continue;
            }
            it.remove();
            if (values.contains(p.fileNumber())) {
                punch(p);
            }
        }
        waiting = !pending.isEmpty();
    }

    private void punch(Pending p) {
        long freed = 0;
        try {
            for (long[] range : p.ranges()) {
                freed += fs.punchHole(values.path(p.fileNumber()), range[0], range[1]);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not give back dead values' space in value file "
                    + values.path(p.fileNumber()) + ": " + e);
        }
        if (freed > 0) {
            LOG.log(System.Logger.Level.INFO, "gave back " + freed + " bytes of " + p.ranges().size()
                    + " dead values in value file " + values.path(p.fileNumber()));
        }
    }
}
