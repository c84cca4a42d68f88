package dev.cairn.loadtest.bench;

import java.time.Duration;

/**
 * The settings of the scale benchmark, the same at every object count.
 *
 * @param threads         concurrent writers in the load, concurrent readers in the GET phases
 * @param seed            determines every key, size and value byte
 * @param getDuration     each GET phase ends after this long ...
 * @param maxGets         ... or after this many GETs
 * @param settleTimeout   the longest wait for background writes to go quiet after the load
 * @param crashDuration   how long the crash writer writes before it is killed; zero skips that step
 * @param blockCacheBytes the engine's block cache
 * @param minFreeBytes    free space the run must leave on the data's file system; it refuses to
 *                        start, or stops its load, rather than go below
 * @param dropCaches      whether to drop the page cache before each open and GET phase (root only)
 *
 * <p>Thread-safety: immutable; invalid values fail at construction.
 */
public record ScaleConfig(
        int threads,
        long seed,
        Duration getDuration,
        long maxGets,
        Duration settleTimeout,
        Duration crashDuration,
        long blockCacheBytes,
        long minFreeBytes,
        boolean dropCaches) {

    public ScaleConfig {
        require(threads >= 1, "threads must be at least 1, got " + threads);
        require(!getDuration.isNegative() && !getDuration.isZero(), "get duration must be positive, got " + getDuration);
        require(maxGets >= 1, "max gets must be at least 1, got " + maxGets);
        require(!settleTimeout.isNegative(), "settle timeout must not be negative, got " + settleTimeout);
        require(!crashDuration.isNegative(), "crash duration must not be negative, got " + crashDuration);
        require(blockCacheBytes >= 0, "block cache bytes must not be negative, got " + blockCacheBytes);
        require(minFreeBytes >= 0, "minimum free bytes must not be negative, got " + minFreeBytes);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
