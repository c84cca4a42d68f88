package dev.cairn.engine;

/**
 * A snapshot of a {@link TieredCache}'s counters since it was opened.
 *
 * @param memoryHits    lookups answered from memory
 * @param ssdHits       lookups that missed memory and were answered from the SSD tier
 * @param misses        lookups that missed both tiers
 * @param memoryBytes   weighted bytes in memory
 * @param memoryEntries entries in memory (estimate)
 * @param ssdBytes      bytes in SSD segment files, 0 without an SSD tier
 * @param ssdEntries    entries on the SSD tier, 0 without one
 */
public record TieredCacheStats(long memoryHits, long ssdHits, long misses, long memoryBytes, long memoryEntries,
                               long ssdBytes, long ssdEntries) {

    public long hits() {
        return memoryHits + ssdHits;
    }

    /** Hits ÷ lookups, 0 before any lookup. */
    public double hitRatio() {
        long lookups = hits() + misses;
        return lookups == 0 ? 0 : (double) hits() / lookups;
    }
}
