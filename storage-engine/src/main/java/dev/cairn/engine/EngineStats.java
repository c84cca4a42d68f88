package dev.cairn.engine;

import java.util.List;

/**
 * A snapshot of the engine's counters.
 *
 * @param filesPerLevel         SSTables per level, level 0 first
 * @param bytesPerLevel         SSTable bytes per level
 * @param valueFiles            live value files
 * @param valueBytes            bytes in live value files (live and garbage)
 * @param valueGarbageBytes     bytes in value files known to be garbage
 * @param memtableBytes         bytes in the active and frozen memtables
 * @param indexAndFilterBytes   memory held by open SSTables' indexes and bloom filters
 * @param liveKeysEstimate      entries in SSTables (an upper bound on live keys)
 * @param blockCacheHits        block cache hits
 * @param blockCacheMisses      block cache misses
 * @param userBytesWritten      key and value bytes accepted from callers
 * @param flushes               memtable flushes completed
 * @param compactions           compactions completed
 * @param compactionBytesWritten bytes written by compaction
 * @param valueGcRuns           value files rewritten by garbage collection
 * @param writeStalls           writes that had to wait for flushes
 * @param rowCache              the row cache's counters per tier; null when it is disabled
 * @param schemas               schema ids in the catalogue
 * @param dictionaryValues      values in the catalogue's value dictionary
 */
public record EngineStats(
        List<Integer> filesPerLevel,
        List<Long> bytesPerLevel,
        int valueFiles,
        long valueBytes,
        long valueGarbageBytes,
        long memtableBytes,
        long indexAndFilterBytes,
        long liveKeysEstimate,
        long blockCacheHits,
        long blockCacheMisses,
        long userBytesWritten,
        long flushes,
        long compactions,
        long compactionBytesWritten,
        long valueGcRuns,
        long writeStalls,
        RowCacheStats rowCache,
        int schemas,
        int dictionaryValues) {
}
