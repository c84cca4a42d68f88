package dev.cairn.engine.sstable;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What a table holds, recorded in its properties block when it is written. Immutable; the key
 * arrays must not be modified.
 *
 * @param entryCount        entries in the table
 * @param deletionCount     entries of kind {@link InternalKeys#KIND_DELETE}
 * @param valuePointerCount entries of kind {@link InternalKeys#KIND_VALUE_POINTER}
 * @param smallestKey       the first internal key
 * @param largestKey        the last internal key
 * @param smallestSequence  the smallest sequence number of any entry
 * @param largestSequence   the largest sequence number of any entry
 * @param rawKeyBytes       sum of key lengths, before prefix compression
 * @param rawValueBytes     sum of value lengths
 * @param dataBlockCount    data blocks in the file
 * @param dataBytes         bytes of data blocks, trailers included
 * @param filterKeyCount    distinct filter keys (table id and user key) added to the bloom filter
 * @param creationTimeMillis wall-clock time the table was finished, ms since the epoch
 * @param fileSize          size of the whole file; known from the file, not stored in the block
 */
public record TableProperties(
        long entryCount,
        long deletionCount,
        long valuePointerCount,
        byte[] smallestKey,
        byte[] largestKey,
        long smallestSequence,
        long largestSequence,
        long rawKeyBytes,
        long rawValueBytes,
        long dataBlockCount,
        long dataBytes,
        long filterKeyCount,
        long creationTimeMillis,
        long fileSize) {

    /** Equal when every field is, keys compared by content. */
    @Override
    public boolean equals(Object o) {
        return o instanceof TableProperties p && entryCount == p.entryCount && deletionCount == p.deletionCount
                && valuePointerCount == p.valuePointerCount && Arrays.equals(smallestKey, p.smallestKey)
                && Arrays.equals(largestKey, p.largestKey) && smallestSequence == p.smallestSequence
                && largestSequence == p.largestSequence && rawKeyBytes == p.rawKeyBytes
                && rawValueBytes == p.rawValueBytes && dataBlockCount == p.dataBlockCount && dataBytes == p.dataBytes
                && filterKeyCount == p.filterKeyCount && creationTimeMillis == p.creationTimeMillis
                && fileSize == p.fileSize;
    }

    @Override
    public int hashCode() {
        return Objects.hash(entryCount, deletionCount, valuePointerCount, Arrays.hashCode(smallestKey),
                Arrays.hashCode(largestKey), smallestSequence, largestSequence, rawKeyBytes, rawValueBytes,
                dataBlockCount, dataBytes, filterKeyCount, creationTimeMillis, fileSize);
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "TableProperties[entryCount=" + entryCount + ", deletionCount=" + deletionCount
                + ", valuePointerCount=" + valuePointerCount
                + ", smallestKey=" + hex.formatHex(smallestKey) + ", largestKey=" + hex.formatHex(largestKey)
                + ", smallestSequence=" + smallestSequence + ", largestSequence=" + largestSequence
                + ", rawKeyBytes=" + rawKeyBytes + ", rawValueBytes=" + rawValueBytes
                + ", dataBlockCount=" + dataBlockCount + ", dataBytes=" + dataBytes
                + ", filterKeyCount=" + filterKeyCount + ", creationTimeMillis=" + creationTimeMillis
                + ", fileSize=" + fileSize + "]";
    }
}
