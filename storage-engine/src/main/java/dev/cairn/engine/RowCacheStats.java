package dev.cairn.engine;

/**
 * A snapshot of the engine's row cache counters, per tier. Scan reads are not counted.
 *
 * @param memoryHits      reads answered from memory
 * @param memoryMisses    reads that missed memory
 * @param memoryEvictions entries evicted from memory by its size bound
 * @param memoryBytes     weighted bytes in memory
 * @param memoryEntries   entries in memory (estimate)
 * @param ssdHits         reads that missed memory and were answered from the SSD tier
 * @param ssdMisses       reads that missed both tiers (equals memory misses without an SSD tier)
 * @param cascaded        evicted entries written to the SSD tier
 * @param cascadeDropped  evicted entries dropped because the cascade queue was full
 * @param ssdEntries      entries on the SSD tier, 0 without one
 * @param ssdBytes        bytes in SSD segment files, 0 without an SSD tier
 * @param ssdBytesWritten bytes appended to SSD segments, garbage-collection copies included
 */
public record RowCacheStats(
        long memoryHits,
        long memoryMisses,
        long memoryEvictions,
        long memoryBytes,
        long memoryEntries,
        long ssdHits,
        long ssdMisses,
        long cascaded,
        long cascadeDropped,
        long ssdEntries,
        long ssdBytes,
        long ssdBytesWritten) {

    /** Memory hits ÷ reads. */
    public double memoryHitRatio() {
        long reads = memoryHits + memoryMisses;
        return reads == 0 ? 0 : (double) memoryHits / reads;
    }

    /** SSD hits ÷ reads (all reads, so the two tiers' ratios add up to the overall hit ratio). */
    public double ssdHitRatio() {
        long reads = memoryHits + memoryMisses;
        return reads == 0 ? 0 : (double) ssdHits / reads;
    }
}
