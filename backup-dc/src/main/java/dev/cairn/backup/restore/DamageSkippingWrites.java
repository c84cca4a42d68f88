package dev.cairn.backup.restore;

import dev.cairn.backup.archive.BackupRow;
import java.io.IOException;
import java.util.List;

/**
 * Writes the rows of one key into a restore's destination. When the write fails on rows whose
 * blob is damaged ({@link DamagedBlobs}), with {@code --skip-damaged} those rows are recorded as
 * skipped and the others written again (in their place, or replayed after clearing what the
 * failed write left); without it the restore fails, saying how to restore the rest.
 */
final class DamageSkippingWrites {
    /** Writes rows of one key; {@code again}: a write of the same key failed before, and may have left part of it. */
    @FunctionalInterface
    interface KeyWrite {
        void write(List<BackupRow> rows, boolean again) throws IOException;
    }

    private final DamagedBlobs damaged;
    private final SkippedObjects skipped;

    /** @param skipped where the rows left out are listed; null when a damaged blob stops the restore */
    DamageSkippingWrites(DamagedBlobs damaged, SkippedObjects skipped) {
        this.damaged = damaged;
        this.skipped = skipped;
    }

    void write(List<BackupRow> rows, KeyWrite write) throws IOException {
        List<BackupRow> left = rows;
        boolean again = false;
        while (!left.isEmpty()) {
            try {
                write.write(left, again);
                return;
            } catch (IOException | RuntimeException e) {
                List<BackupRow> hit = left.stream()
                        .filter(r -> r.hasContent() && damaged.reason(r.info().sha256()) != null).toList();
                if (hit.isEmpty()) {
                    throw e;
                }
                if (skipped == null) {
                    String why = e.getMessage() == null ? e.toString() : e.getMessage();
                    throw new IOException(why + " (--skip-damaged restores every other object and lists those left out)", e);
                }
                for (BackupRow r : hit) {
                    String versionId = r.isVersion() ? r.version().version().versionId() : null;
                    skipped.add(new SkippedObject(r.bucket(), r.key(), versionId, damaged.reason(r.info().sha256())));
                }
                left = left.stream().filter(r -> !hit.contains(r)).toList();
                again = true;
            }
        }
    }
}
