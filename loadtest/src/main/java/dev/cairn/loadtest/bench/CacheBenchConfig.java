package dev.cairn.loadtest.bench;

import java.time.Duration;
import java.util.List;

/**
 * One run of the row cache benchmark.
 *
 * @param objects          records loaded (YCSB-shaped rows, see {@link YcsbRows})
 * @param threads          concurrent clients in every phase
 * @param seed             determines every key, row and request
 * @param rounds           update rounds after the load, each followed by a flush, so that
 *                         records' versions sit in several SSTables
 * @param updatesPerRound  updates per round, keys drawn from the latest distribution
 * @param warmupReads      reads that warm each configuration's caches at least ...
 * @param maxWarmupReads   ... and at most; in between, warming stops once the cached rows stop growing
 * @param measureDuration  length of each measured mix
 * @param readShares       the measured mixes' shares of reads (the rest are updates), in order
 * @param memoryCacheBytes the memory row cache, in both configurations
 * @param ssdCacheBytes    the SSD row cache of the tiered configuration
 * @param blockCacheBytes  the SSTable block cache, in both configurations
 *
 * <p>Thread-safety: immutable; invalid values fail at construction.
 */
public record CacheBenchConfig(
        long objects,
        int threads,
        long seed,
        int rounds,
        long updatesPerRound,
        long warmupReads,
        long maxWarmupReads,
        Duration measureDuration,
        List<Double> readShares,
        long memoryCacheBytes,
        long ssdCacheBytes,
        long blockCacheBytes) {

    public CacheBenchConfig {
        require(objects >= 2, "objects must be at least 2, got " + objects);
        require(threads >= 1, "threads must be at least 1, got " + threads);
        require(rounds >= 0, "rounds must not be negative, got " + rounds);
        require(updatesPerRound >= 0, "updates per round must not be negative, got " + updatesPerRound);
        require(warmupReads >= 0, "warm-up reads must not be negative, got " + warmupReads);
        require(maxWarmupReads >= warmupReads, "the most warm-up reads must be at least the least, got "
                + maxWarmupReads + " < " + warmupReads);
        require(!measureDuration.isNegative() && !measureDuration.isZero(),
                "the measured duration must be positive, got " + measureDuration);
        require(!readShares.isEmpty(), "at least one read share is needed");
        for (double share : readShares) {
            require(share >= 0 && share <= 1, "read shares are in [0, 1], got " + share);
        }
        readShares = List.copyOf(readShares);
        require(memoryCacheBytes >= 1024, "the memory cache must be at least 1024 bytes, got " + memoryCacheBytes);
        require(ssdCacheBytes >= 1, "the SSD cache must be at least 1 byte, got " + ssdCacheBytes);
        require(blockCacheBytes >= 0, "block cache bytes must not be negative, got " + blockCacheBytes);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
