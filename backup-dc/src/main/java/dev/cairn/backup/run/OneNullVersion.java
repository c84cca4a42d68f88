package dev.cairn.backup.run;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.VersionId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a key's version {@code null} once when a run read it twice. A live Cassandra scan reads a
 * current row written before its bucket was versioned as the version {@code null} without place
 * (scan of {@code objects}); when the key changes before the scan of {@code versions} reaches it,
 * that scan reads the key's version {@code null} again, with a place: the same version, now
 * listed, or the one that replaced it. A key has one version {@code null}, and a key lies in one
 * split, whose {@code versions} pass always follows its {@code objects} pass, so the row with a
 * place is the later read and is kept; the row without place is dropped (a restore would let the
 * placed one replace it anyway). Takes rows in manifest order; buffers only the rows of a key
 * that follow its row without place. Not thread-safe.
 */
final class OneNullVersion implements RowMerge.Sink {
    private final RowMerge.Sink out;
    private BackupRow unplaced;
    private final List<BackupRow> sameKey = new ArrayList<>();

    OneNullVersion(RowMerge.Sink out) {
        this.out = out;
    }

    private static boolean nullVersion(BackupRow row) {
        String id = row.version().version().versionId();
        return id == null || VersionId.NULL.equals(id);
    }

    @Override
    public void accept(BackupRow row) throws IOException {
        if (unplaced != null) {
            if (row.bucket().equals(unplaced.bucket()) && row.key().equals(unplaced.key())) {
                if (row.isVersion() && row.order() != null && nullVersion(row)) {
                    unplaced = null;
                    flushKey();
                    out.accept(row);
                } else {
                    sameKey.add(row);
                }
                return;
            }
            out.accept(unplaced);
            unplaced = null;
            flushKey();
        }
        if (row.isVersion() && row.order() == null && nullVersion(row)) {
            unplaced = row;
        } else {
            out.accept(row);
        }
    }

    private void flushKey() throws IOException {
        for (BackupRow r : sameKey) {
            out.accept(r);
        }
        sameKey.clear();
    }

    /** Passes on the rows held back; call after the last row. */
    void finish() throws IOException {
        if (unplaced != null) {
            out.accept(unplaced);
            unplaced = null;
        }
        flushKey();
    }
}
