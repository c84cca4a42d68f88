package dev.cairn.loadtest.generator;

import java.util.SplittableRandom;

/** Every key equally likely. Thread-safety: stateless. */
public final class UniformChooser implements KeyChooser {
    @Override
    public long next(SplittableRandom random, long count) {
        return random.nextLong(count);
    }
}
