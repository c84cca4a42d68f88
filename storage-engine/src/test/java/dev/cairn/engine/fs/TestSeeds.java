package dev.cairn.engine.fs;

import java.util.Random;

/**
 * Seeds for randomised tests: printed so that any failure reproduces by running again with
 * {@code -Dcairn.test.seed=<seed>}.
 */
public final class TestSeeds {
    private TestSeeds() {
    }

    public static long seed(String testName) {
        long seed = Long.getLong("cairn.test.seed", new Random().nextLong());
        System.out.println(testName + " seed=" + seed + " (rerun with -Dcairn.test.seed=" + seed + ")");
        return seed;
    }
}
