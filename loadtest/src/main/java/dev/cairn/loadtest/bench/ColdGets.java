package dev.cairn.loadtest.bench;

/**
 * One measured phase of random GETs on the scale benchmark, with what they cost below the
 * engine. A figure the platform cannot give is {@link Double#NaN}.
 *
 * @param gets                 GETs done
 * @param seconds              the phase's length
 * @param p50Millis            GET latency, median
 * @param p99Millis            GET latency, 99th percentile
 * @param valueBytes           value bytes returned
 * @param fileReads            reads issued to the engine's files (block cache misses plus value reads), from the FileSystem's count
 * @param blockReads           SSTable data blocks read from files: the block cache's misses
 * @param processReadBytes     {@code /proc/self/io} read_bytes: what this process read from the device
 * @param deviceReads          reads completed by the block device (the whole device, every process)
 * @param deviceReadBytes      bytes read by the block device (the same)
 * @param blockCacheHitRatio   block cache hits over lookups in the phase
 *
 * <p>Thread-safety: immutable.
 */
public record ColdGets(long gets, double seconds, double p50Millis, double p99Millis, long valueBytes,
        long fileReads, long blockReads, double processReadBytes, double deviceReads, double deviceReadBytes,
        double blockCacheHitRatio) {

    public double getsPerSecond() {
        return seconds == 0 ? 0 : gets / seconds;
    }

    public double megabytesPerSecond() {
        return seconds == 0 ? 0 : valueBytes / 1e6 / seconds;
    }

    /** File reads per GET: the engine's own count, page-cache hits included. */
    public double fileReadsPerGet() {
        return (double) fileReads / Math.max(1, gets);
    }

    public double blockReadsPerGet() {
        return (double) blockReads / Math.max(1, gets);
    }

    public double deviceReadsPerGet() {
        return deviceReads / Math.max(1, gets);
    }

    /** Bytes this process read from the device per GET. */
    public double processReadBytesPerGet() {
        return processReadBytes / Math.max(1, gets);
    }

    public double meanValueBytes() {
        return (double) valueBytes / Math.max(1, gets);
    }
}
