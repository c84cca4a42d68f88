package dev.cairn.loadtest.bench;

/**
 * What one configuration did in one measured mix of the row cache benchmark.
 *
 * @param readShare       the mix's share of reads
 * @param reads           reads completed
 * @param updates         updates completed
 * @param elapsedNanos    length of the measured phase
 * @param readP50Millis   median read latency
 * @param readP99Millis   99th percentile read latency
 * @param readMeanMillis  mean read latency
 * @param memoryHits      reads answered by the memory row cache
 * @param ssdHits         reads answered by the SSD row cache
 * @param cacheMisses     reads that missed every row cache tier
 * @param deviceReads     reads of the simulated disk (capacity tier), seeks and sequential alike
 * @param memoryEntries   rows in the memory cache at the end
 * @param ssdEntries      rows in the SSD cache at the end (0 without one)
 *
 * <p>Thread-safety: immutable.
 */
record CacheMixFigures(
        double readShare,
        long reads,
        long updates,
        long elapsedNanos,
        double readP50Millis,
        double readP99Millis,
        double readMeanMillis,
        long memoryHits,
        long ssdHits,
        long cacheMisses,
        long deviceReads,
        long memoryEntries,
        long ssdEntries) {

    double opsPerSecond() {
        return perSecond(reads + updates);
    }

    double readsPerSecond() {
        return perSecond(reads);
    }

    private double perSecond(long count) {
        return elapsedNanos == 0 ? Double.NaN : count * 1e9 / elapsedNanos;
    }

    private long lookups() {
        return memoryHits + ssdHits + cacheMisses;
    }

    double memoryHitRatio() {
        return lookups() == 0 ? Double.NaN : (double) memoryHits / lookups();
    }

    double ssdHitRatio() {
        return lookups() == 0 ? Double.NaN : (double) ssdHits / lookups();
    }

    double hitRatio() {
        return memoryHitRatio() + ssdHitRatio();
    }

    double deviceReadsPerRead() {
        return reads == 0 ? Double.NaN : (double) deviceReads / reads;
    }
}
