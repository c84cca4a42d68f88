package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.EngineOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses the next leveled compaction: level 0 into level 1 once it holds
 * {@link EngineOptions#level0CompactionTrigger()} files; otherwise one file of the level most
 * over its size target, taken round-robin through the key space, into the level below.
 * Called by the compaction thread only.
 */
final class CompactionPicker {
    private final EngineOptions options;
    private final int[] compactPointer = new int[ManifestState.MAX_LEVELS];

    CompactionPicker(EngineOptions options) {
        this.options = options;
    }

    long levelTarget(int level) {
        long target = options.level1Bytes();
        for (int i = 1; i < level; i++) {
            target *= options.levelSizeMultiplier();
        }
        return target;
    }

    /** The compaction to run now, or null when every level is within its target. */
    Compaction pick(Version v) {
        List<List<FileMeta>> levels = v.levels();
        if (levels.get(0).size() >= options.level0CompactionTrigger()) {
            List<FileMeta> inputs = levels.get(0);
            byte[][] range = range(inputs);
            return new Compaction(0, inputs, overlapping(levels.get(1), range[0], range[1]), 1);
        }
        int best = -1;
        double bestScore = 1.0;
        for (int level = 1; level < levels.size() - 1; level++) {
            double score = (double) v.levelBytes(level) / levelTarget(level);
            if (score >= bestScore) {
                best = level;
                bestScore = score;
            }
        }
        if (best < 0) {
            return null;
        }
        List<FileMeta> files = levels.get(best);
        int i = compactPointer[best] % files.size();
        compactPointer[best] = i + 1;
        FileMeta f = files.get(i);
        return new Compaction(best, List.of(f), overlapping(levels.get(best + 1), f.smallest(), f.largest()), best + 1);
    }

    private static byte[][] range(List<FileMeta> files) {
        byte[] lo = null;
        byte[] hi = null;
        for (FileMeta f : files) {
            if (lo == null || InternalKeys.COMPARATOR.compare(f.smallest(), lo) < 0) {
                lo = f.smallest();
            }
            if (hi == null || InternalKeys.COMPARATOR.compare(f.largest(), hi) > 0) {
                hi = f.largest();
            }
        }
        return new byte[][] {lo, hi};
    }

    private static List<FileMeta> overlapping(List<FileMeta> files, byte[] lo, byte[] hi) {
        List<FileMeta> out = new ArrayList<>();
        for (FileMeta f : files) {
            if (f.overlaps(lo, hi)) {
                out.add(f);
            }
        }
        return out;
    }
}
