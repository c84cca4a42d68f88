package dev.cairn.engine.cache;

/**
 * A snapshot of the {@link SsdCache}'s counters.
 *
 * @param hits            gets answered from the cache
 * @param misses          gets not answered (absent, hash collision, corrupt or unreadable entry)
 * @param entries         entries in the index
 * @param bytes           bytes in segment files
 * @param garbageBytes    bytes of dead entries in segment files
 * @param evictions       entries dropped with the oldest segment when the cache was full
 * @param admissionRejected entries the admission policy refused
 * @param bytesWritten    bytes appended, including garbage-collection copies
 * @param gcCopiedBytes   bytes copied forward by garbage collection
 * @param gcSegments      segments collected
 * @param corruptions     entries that failed their checksum on read (each then removed)
 * @param segments        segment files
 * @param indexBytes      memory held by the index's tables
 */
public record SsdCacheStats(
        long hits,
        long misses,
        long entries,
        long bytes,
        long garbageBytes,
        long evictions,
        long admissionRejected,
        long bytesWritten,
        long gcCopiedBytes,
        long gcSegments,
        long corruptions,
        int segments,
        long indexBytes) {

    /** Dead bytes ÷ bytes in segments, 0 when empty. */
    public double garbageRatio() {
        return bytes == 0 ? 0 : (double) garbageBytes / bytes;
    }

    /** Index memory per entry, 0 when empty. */
    public double indexBytesPerEntry() {
        return entries == 0 ? 0 : (double) indexBytes / entries;
    }
}
