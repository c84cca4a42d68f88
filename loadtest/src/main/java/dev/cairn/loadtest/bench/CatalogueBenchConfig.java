package dev.cairn.loadtest.bench;

import java.time.Duration;

/**
 * One run of the catalogue benchmark.
 *
 * @param objects     metadata rows stored in each of the two stores
 * @param threads     concurrent writers and readers
 * @param seed        determines every key and row, and the order of gets
 * @param getDuration the measured get time per store
 *
 * <p>Thread-safety: immutable; invalid values fail at construction.
 */
public record CatalogueBenchConfig(long objects, int threads, long seed, Duration getDuration) {

    public CatalogueBenchConfig {
        if (objects < 16) {
            throw new IllegalArgumentException("objects must be at least 16, got " + objects);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        if (getDuration.isNegative() || getDuration.isZero()) {
            throw new IllegalArgumentException("get duration must be positive, got " + getDuration);
        }
    }
}
