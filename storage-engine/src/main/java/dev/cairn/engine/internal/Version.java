package dev.cairn.engine.internal;

import java.util.List;

/**
 * An immutable set of live SSTables per level. Reference counted: while any reader holds it,
 * none of its files is deleted. The current version holds one reference of its own.
 */
final class Version {
    private final List<List<FileMeta>> levels;
    private final RefCount refs;

    Version(List<List<FileMeta>> levels, Runnable onDeath) {
        this.levels = levels;
        this.refs = new RefCount(onDeath);
    }

    List<List<FileMeta>> levels() {
        return levels;
    }

    List<FileMeta> level(int level) {
        return levels.get(level);
    }

    boolean tryRef() {
        return refs.tryRef();
    }

    void unref() {
        refs.unref();
    }

    long levelBytes(int level) {
        long total = 0;
        for (FileMeta f : levels.get(level)) {
            total += f.size();
        }
        return total;
    }
}
