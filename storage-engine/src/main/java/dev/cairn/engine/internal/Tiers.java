package dev.cairn.engine.internal;

import dev.cairn.engine.EngineOptions;
import java.nio.file.Path;

/**
 * Where each file class lives: the fast tier holds the commit log, the manifest and the young
 * levels; the capacity tier holds the older levels and the value files. With one directory
 * both tiers are the same place.
 */
final class Tiers {
    private final Path fast;
    private final Path capacity;
    private final int fastLevels;

    Tiers(EngineOptions options) {
        this.fast = options.directory();
        this.capacity = options.capacityDirectory();
        this.fastLevels = options.fastLevels();
    }

    Path fast() {
        return fast;
    }

    Path capacity() {
        return capacity;
    }

    boolean split() {
        return !fast.equals(capacity);
    }

    Path tableDirectory(int level) {
        return level < fastLevels ? fast : capacity;
    }

    Path valueDirectory() {
        return capacity;
    }

    /** Whether files of both levels live in the same directory, so a file can move without a copy. */
    boolean sameTier(int levelA, int levelB) {
        return tableDirectory(levelA).equals(tableDirectory(levelB));
    }
}
