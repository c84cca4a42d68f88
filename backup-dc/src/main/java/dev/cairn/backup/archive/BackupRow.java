package dev.cairn.backup.archive;

import dev.cairn.store.ObjectInfo;
import dev.cairn.store.Utf8Order;
import dev.cairn.store.VersionRecord;
import java.util.Comparator;

/**
 * One row of a backup: the bucket it lives in and everything the store knows of it. A bucket
 * whose versioning was never configured has one row per object, its current row ({@code version}
 * null); a bucket whose versioning is configured has one row per version of each key, delete
 * markers included ({@code version} set; {@code info} null for a delete marker).
 *
 * @param info    the object row; null only for a delete marker
 * @param version the version with its place; null for an object of a bucket without versioning
 */
public record BackupRow(String bucket, ObjectInfo info, VersionRecord version) {

    /**
     * Manifest order: bucket, then key, both in UTF-8 byte order (the order of S3 listings), then
     * the version's place (none first, then unsigned bytes: newest first).
     */
    public static final Comparator<BackupRow> ORDER = Comparator
            .comparing(BackupRow::bucket, Utf8Order.COMPARATOR)
            .thenComparing(BackupRow::key, Utf8Order.COMPARATOR)
            .thenComparing((a, b) -> VersionRecord.compareOrder(a.order(), b.order()));

    public BackupRow {
        if (info == null && (version == null || !version.version().deleteMarker())) {
            throw new IllegalArgumentException("a row without object must be a delete marker");
        }
    }

    /** The current row of an object in a bucket without versioning. */
    public BackupRow(String bucket, ObjectInfo info) {
        this(bucket, info, null);
    }

    /** One version of a key in a bucket whose versioning is configured. */
    public static BackupRow ofVersion(String bucket, VersionRecord version) {
        return new BackupRow(bucket, version.version().info(), version);
    }

    public String key() {
        return info != null ? info.key() : version.version().key();
    }

    /** Whether this row is one version of a versioned bucket's key. */
    public boolean isVersion() {
        return version != null;
    }

    /** Whether the row names content (every row but a delete marker). */
    public boolean hasContent() {
        return info != null;
    }

    /** The content's size; 0 for a delete marker. */
    public long size() {
        return info == null ? 0 : info.size();
    }

    /** The version's place; null for a row without one. */
    public byte[] order() {
        return version == null ? null : version.order();
    }
}
