package dev.cairn.store;

import java.util.Arrays;

/**
 * One version of a key as a store keeps it, with its place among the key's versions: what a
 * backup records of a versioned bucket, and what a restore writes back
 * ({@link ObjectStore#restoreVersion}).
 *
 * @param version the version: an object version (with its row) or a delete marker; its
 *                {@code latest} flag is not part of the record (the newest version is the current one)
 * @param order   the version's place among the key's versions, as the store orders them: bytes
 *                that ascend (unsigned) from the newest version to the oldest; null for a version
 *                the store gave no place (an object written before its bucket's versioning was
 *                configured, which is then the key's only version). The embedded store's are its
 *                12-byte sort ids (docs/format/versions.md). Shared, not copied: never modified.
 * @param partSizes the sizes of the parts, in order, a multipart object version was completed
 *                from, so that a restore can serve it by part number again; null when it is not
 *                multipart or the layout is unknown. Shared, not copied: never modified.
 */
public record VersionRecord(ObjectVersion version, byte[] order, long[] partSizes) {

    public VersionRecord {
        if (version == null) {
            throw new IllegalArgumentException("version is required");
        }
        if (partSizes != null) {
            String wrong = wrongLayout(version.deleteMarker() ? null : version.info(), partSizes);
            if (wrong != null) {
                throw new IllegalArgumentException(version.key() + ": " + wrong);
            }
        }
    }

    /** A version whose part layout is unknown or that is not multipart. */
    public VersionRecord(ObjectVersion version, byte[] order) {
        this(version, order, null);
    }

    /**
     * Why {@code partSizes} cannot be the part layout of {@code info} (null: a delete marker), or
     * null when it can: one size per part, none negative, summing to the object's size.
     */
    public static String wrongLayout(ObjectInfo info, long[] partSizes) {
        if (info == null) {
            return "a delete marker has no parts";
        }
        if (partSizes.length != info.partCount()) {
            return partSizes.length + " part sizes for " + info.partCount() + " parts";
        }
        long total = 0;
        for (long s : partSizes) {
            if (s < 0) {
                return "a negative part size";
            }
            total += s;
        }
        return total == info.size() ? null : "part sizes sum to " + total + ", the object has " + info.size() + " bytes";
    }

    public VersionRecord withPartSizes(long[] sizes) {
        return new VersionRecord(version, order, sizes);
    }

    /** Compares places: null (no place) first, then bytes unsigned; ascending is newest first. */
    public static int compareOrder(byte[] a, byte[] b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return Arrays.compareUnsigned(a, b);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VersionRecord r && version.equals(r.version) && Arrays.equals(order, r.order)
                && Arrays.equals(partSizes, r.partSizes);
    }

    @Override
    public int hashCode() {
        return 31 * version.hashCode() + Arrays.hashCode(order);
    }

    @Override
    public String toString() {
        return "VersionRecord[" + version + ", order=" + (order == null ? "none" : Hex.encode(order))
                + (partSizes == null ? "" : ", parts=" + Arrays.toString(partSizes)) + "]";
    }
}
