package dev.cairn.engine.internal;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An immutable set of live SSTables per level. Reference counted: while any reader holds it,
 * none of its files is deleted. The current version holds one reference of its own.
 */
final class Version {
    private final List<List<FileMeta>> levels;
    private final AtomicInteger refs = new AtomicInteger(1);
    private final Runnable onDeath;

    Version(List<List<FileMeta>> levels, Runnable onDeath) {
        this.levels = levels;
        this.onDeath = onDeath;
    }

    List<List<FileMeta>> levels() {
        return levels;
    }

    List<FileMeta> level(int level) {
        return levels.get(level);
    }

    boolean tryRef() {
        while (true) {
            int r = refs.get();
            if (r <= 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    void unref() {
        if (refs.decrementAndGet() == 0) {
            onDeath.run();
        }
    }

    long levelBytes(int level) {
        long total = 0;
        for (FileMeta f : levels.get(level)) {
            total += f.size();
        }
        return total;
    }
}
