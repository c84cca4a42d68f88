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
 * @param partSizes the part sizes of a multipart object ({@link VersionRecord#partSizes}, the same
 *                array for a version row); null when not multipart or not known
 */
public record BackupRow(String bucket, ObjectInfo info, VersionRecord version, long[] partSizes) {

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
        if (version != null && version.partSizes() != partSizes) {
            throw new IllegalArgumentException("a version row's part sizes are its version's");
        }
        if (partSizes != null && version == null) {
            String wrong = VersionRecord.wrongLayout(info, partSizes);
            if (wrong != null) {
                throw new IllegalArgumentException(info.key() + ": " + wrong);
            }
        }
    }

    /** The current row of an object in a bucket without versioning. */
    public BackupRow(String bucket, ObjectInfo info) {
        this(bucket, info, null, null);
    }

    /** The current row of a multipart object in a bucket without versioning, with its part sizes. */
    public BackupRow(String bucket, ObjectInfo info, long[] partSizes) {
        this(bucket, info, null, partSizes);
    }

    /** One version of a key in a bucket whose versioning is configured. */
    public static BackupRow ofVersion(String bucket, VersionRecord version) {
        return new BackupRow(bucket, version.version().info(), version, version.partSizes());
    }

    /** This row with the part sizes of its multipart object. */
    public BackupRow withPartSizes(long[] sizes) {
        return version == null ? new BackupRow(bucket, info, null, sizes) : ofVersion(bucket, version.withPartSizes(sizes));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BackupRow r && bucket.equals(r.bucket) && java.util.Objects.equals(info, r.info)
                && java.util.Objects.equals(version, r.version) && java.util.Arrays.equals(partSizes, r.partSizes);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(bucket, info, version);
    }

    @Override
    public String toString() {
        return "BackupRow[" + bucket + ", " + info + ", " + version
                + (partSizes == null ? "" : ", parts=" + java.util.Arrays.toString(partSizes)) + "]";
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
