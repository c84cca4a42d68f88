package dev.cairn.loadtest.generator;

import java.util.SplittableRandom;

/**
 * Picks the index of the next key to operate on, among {@code count} keys numbered {@code 0 ..
 * count - 1} in insertion order. The count may grow between calls (inserts).
 *
 * <p>Thread-safety: implementations are safe for concurrent use; each thread brings its own
 * random source, so a run is reproducible per thread from its seed.
 */
public interface KeyChooser {

    /** An index in {@code [0, count)}; {@code count} is at least 1. */
    long next(SplittableRandom random, long count);
}
