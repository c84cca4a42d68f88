package dev.cairn.engine.cache;

/**
 * A snapshot of the {@link RowCache}'s counters, per tier. Scan reads are not counted.
 *
 * @param memoryHits       reads answered from memory
 * @param memoryMisses     reads that missed memory
 * @param memoryEvictions  entries evicted from memory by its size bound
 * @param memoryBytes      weighted bytes in memory
 * @param memoryEntries    entries in memory (estimate)
 * @param ssdHits          reads that missed memory and were answered from the SSD tier
 * @param ssdMisses        reads that missed both tiers (equals memory misses without an SSD tier)
 * @param cascaded         evicted entries written to the SSD tier
 * @param cascadeDropped   evicted entries dropped because the cascade queue was full
 * @param ssd              the SSD tier's own counters (evictions, bytes, entries, garbage), or null
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
        SsdCacheStats ssd) {

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

    /** The SSD tier's garbage ratio, 0 without one. */
    public double ssdGarbageRatio() {
        return ssd == null ? 0 : ssd.garbageRatio();
    }
}
