package dev.cairn.backup.restore;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.VersionId;
import dev.cairn.store.Versioning;
import java.util.List;

/**
 * How a replay into S3 writes a key's {@code null} version in its place. An S3 client makes a
 * {@code null} version only by writing while the bucket is Suspended, and a write while Enabled
 * goes on top of it; so a restore whose buckets hold {@code null} versions goes over the manifest
 * in three passes, toggling versioning per pass over those buckets, never per key: pass 0
 * (Enabled) writes each key's versions older than its {@code null} one (every version of a key
 * without one, and every other row); pass 1 (Suspended) the {@code null} versions; pass 2 (Enabled)
 * the versions newer than them. At the end a bucket recorded Suspended is left Suspended.
 *
 * <p>Resuming: pass 0 clears the keys of its interrupted batch and writes them again, as a
 * replay always did; passes 1 and 2 write on top of what the key already has and resume by
 * counting: the key's versions beyond those the earlier passes wrote are the oldest of this
 * pass's, written before the interruption, and are not written again. With
 * {@code --allow-non-empty} every pass, pass 0 included, counts from the numbers recorded before
 * its batch ({@link Restore}), since the keys may hold versions from before the restore.
 */
final class ReplayPasses {
    static final int COUNT = 3;

    private ReplayPasses() {
    }

    /**
     * The versions of one key a pass writes, newest first.
     *
     * @param below the versions the key holds under them once the earlier passes are done
     * @param onTop written on top of those (passes 1 and 2), resumed by counting
     */
    record Slice(List<BackupRow> rows, int below, boolean onTop) {
    }

    static boolean isNull(BackupRow row) {
        return row.isVersion() && VersionId.NULL.equals(row.version().version().versionId());
    }

    static Versioning versioningOf(int pass) {
        return pass == 1 ? Versioning.SUSPENDED : Versioning.ENABLED;
    }

    /** The part of a key's versions ({@code newestFirst}) that {@code pass} writes. */
    static Slice slice(int pass, List<BackupRow> newestFirst, boolean replays) {
        int at = -1;
        for (int i = 0; replays && i < newestFirst.size() && at < 0; i++) {
            at = isNull(newestFirst.get(i)) ? i : -1;
        }
        int size = newestFirst.size();
        if (at < 0) {
            return new Slice(pass == 0 ? List.copyOf(newestFirst) : List.of(), 0, false);
        }
        return switch (pass) {
            case 0 -> new Slice(List.copyOf(newestFirst.subList(at + 1, size)), 0, false);
            case 1 -> new Slice(List.of(newestFirst.get(at)), size - 1 - at, true);
            case 2 -> new Slice(List.copyOf(newestFirst.subList(0, at)), size - at, true);
            default -> throw new IllegalArgumentException("no replay pass " + pass);
        };
    }
}
