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
 */
public record VersionRecord(ObjectVersion version, byte[] order) {

    public VersionRecord {
        if (version == null) {
            throw new IllegalArgumentException("version is required");
        }
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
        return o instanceof VersionRecord r && version.equals(r.version) && Arrays.equals(order, r.order);
    }

    @Override
    public int hashCode() {
        return 31 * version.hashCode() + Arrays.hashCode(order);
    }

    @Override
    public String toString() {
        return "VersionRecord[" + version + ", order=" + (order == null ? "none" : Hex.encode(order)) + "]";
    }
}
