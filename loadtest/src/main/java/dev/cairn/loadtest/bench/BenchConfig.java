package dev.cairn.loadtest.bench;

import java.time.Duration;

/**
 * One run of the engine benchmark.
 *
 * @param objects         objects loaded and then overwritten once
 * @param threads         concurrent writers, and concurrent readers in the get phase
 * @param seed            determines every key, size and value byte
 * @param valueThreshold  values at least this large are kept apart from the LSM (both stores)
 * @param blockCacheBytes block cache size (both stores)
 * @param getDuration     the measured get phase ends after this long ...
 * @param maxGets         ... or after this many gets, whichever comes first
 * @param settleTimeout   the longest wait for background work to go quiet after the overwrite
 *
 * <p>Thread-safety: immutable; invalid values fail at construction.
 */
public record BenchConfig(
        long objects,
        int threads,
        long seed,
        int valueThreshold,
        long blockCacheBytes,
        Duration getDuration,
        long maxGets,
        Duration settleTimeout) {

    public BenchConfig {
        require(objects >= 1, "objects must be at least 1, got " + objects);
        require(threads >= 1, "threads must be at least 1, got " + threads);
        require(valueThreshold >= 1, "value threshold must be at least 1, got " + valueThreshold);
        require(blockCacheBytes >= 0, "block cache bytes must not be negative, got " + blockCacheBytes);
        require(!getDuration.isNegative() && !getDuration.isZero(), "get duration must be positive, got " + getDuration);
        require(maxGets >= 1, "max gets must be at least 1, got " + maxGets);
        require(!settleTimeout.isNegative(), "settle timeout must not be negative, got " + settleTimeout);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
