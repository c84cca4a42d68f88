package dev.cairn.loadtest.bench;

import java.util.List;

/**
 * What the scale benchmark measured at one object count. Rates are per second, latencies in
 * milliseconds, times to open in milliseconds; a figure the platform cannot give is
 * {@link Double#NaN}.
 *
 * @param objects              objects loaded
 * @param userBytes            key and value bytes loaded
 * @param diskBytes            bytes of the engine's files after the load settled
 * @param memoryBytes          the machine's memory (MemTotal)
 * @param loadSeconds          length of the load
 * @param loadP50Millis        put latency, median
 * @param loadP99Millis        put latency, 99th percentile
 * @param settled              whether background writes went quiet after the load
 * @param fileBytesWritten     bytes appended to the engine's files over load and settling
 * @param kernelBytesWritten   {@code /proc/self/io} write_bytes minus cancelled_write_bytes, same span: the
 *                             kernel's count of this process's page-cache pages dirtied, which counts a
 *                             whole large folio whenever one of its blocks is dirtied (docs/load-benchmarks.md)
 * @param diskBytesWritten     sectors written to the block device under the store, same span, whole machine
 * @param indexAndFilterBytes  memory of the SSTables' indexes and bloom filters
 * @param lsmBytes             bytes of SSTables (keys and value pointers; values live in value files)
 * @param filesPerLevel        SSTables per level
 * @param blockCacheBytes      the engine's block cache capacity
 * @param closeMillis          time to close the engine after the load (a clean stop)
 * @param openAfterCloseMillis time to open it again
 * @param cold                 GETs right after that open: block cache empty, page cache dropped if allowed
 * @param warm                 GETs after the page cache was dropped again, the engine (and its block cache) kept
 * @param crashWrites          writes the killed process had acknowledged when it was killed
 * @param openAfterKillMillis  time to open after that process was killed with SIGKILL
 * @param crashWritesFound     acknowledged writes found after that open (all of them, or the run fails)
 * @param pageCacheDropped     whether the page cache was dropped before each open and GET phase
 *
 * <p>Thread-safety: immutable.
 */
public record ScaleFigures(
        long objects,
        long userBytes,
        long diskBytes,
        long memoryBytes,
        double loadSeconds,
        double loadP50Millis,
        double loadP99Millis,
        boolean settled,
        long fileBytesWritten,
        double kernelBytesWritten,
        double diskBytesWritten,
        long indexAndFilterBytes,
        long lsmBytes,
        List<Integer> filesPerLevel,
        long blockCacheBytes,
        double closeMillis,
        double openAfterCloseMillis,
        ColdGets cold,
        ColdGets warm,
        long crashWrites,
        double openAfterKillMillis,
        long crashWritesFound,
        boolean pageCacheDropped) {

    public ScaleFigures {
        filesPerLevel = List.copyOf(filesPerLevel);
    }

    public double loadObjectsPerSecond() {
        return objects / loadSeconds;
    }

    public double loadMegabytesPerSecond() {
        return userBytes / 1e6 / loadSeconds;
    }

    /** Bytes appended to the engine's files ÷ user bytes. */
    public double writeAmp() {
        return (double) fileBytesWritten / userBytes;
    }

    /** The kernel's count of this process's dirtied bytes ÷ user bytes. */
    public double writeAmpKernelCount() {
        return kernelBytesWritten / userBytes;
    }

    /** Bytes the block device wrote (every process on the machine) ÷ user bytes. */
    public double writeAmpDisk() {
        return diskBytesWritten / userBytes;
    }

    public double indexAndFilterBytesPerObject() {
        return (double) indexAndFilterBytes / objects;
    }

    public double lsmBytesPerObject() {
        return (double) lsmBytes / objects;
    }

    /** Data on disk ÷ the machine's memory: at least 2 means most GETs must go to the device. */
    public double dataToMemory() {
        return memoryBytes <= 0 ? Double.NaN : (double) diskBytes / memoryBytes;
    }
}
