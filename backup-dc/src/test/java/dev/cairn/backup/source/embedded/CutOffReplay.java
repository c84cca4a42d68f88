package dev.cairn.backup.source.embedded;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.restore.ForwardingRestoreDestination;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.store.ContentSource;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * A destination that, for the first key whose versions (newest first) match {@code at}, writes
 * the oldest of them, then fails, as a job killed between two PUTs would.
 */
final class CutOffReplay extends ForwardingRestoreDestination {
    private final Predicate<List<BackupRow>> at;
    private final AtomicBoolean cutOff = new AtomicBoolean();

    CutOffReplay(RestoreDestination inner, Predicate<List<BackupRow>> at) {
        super(inner);
        this.at = at;
    }

    boolean hasCutOff() {
        return cutOff.get();
    }

    @Override
    public void replay(List<BackupRow> newestFirst, List<ContentSource> contents, boolean clearFirst)
            throws IOException {
        if (cutsOff(newestFirst)) {
            inner.replay(oldest(newestFirst), oldest(contents), clearFirst);
            throw cutOffAfterOne(newestFirst);
        }
        inner.replay(newestFirst, contents, clearFirst);
    }

    @Override
    public void replayOnTop(List<BackupRow> newestFirst, List<ContentSource> contents, int below, boolean resume)
            throws IOException {
        if (cutsOff(newestFirst)) {
            inner.replayOnTop(oldest(newestFirst), oldest(contents), below, resume);
            throw cutOffAfterOne(newestFirst);
        }
        inner.replayOnTop(newestFirst, contents, below, resume);
    }

    private boolean cutsOff(List<BackupRow> newestFirst) {
        return at.test(newestFirst) && cutOff.compareAndSet(false, true);
    }

    private static <T> List<T> oldest(List<T> newestFirst) {
        return newestFirst.subList(newestFirst.size() - 1, newestFirst.size());
    }

    private static IOException cutOffAfterOne(List<BackupRow> newestFirst) {
        return new IOException("cut off after one version of " + newestFirst.get(0).key());
    }
}
