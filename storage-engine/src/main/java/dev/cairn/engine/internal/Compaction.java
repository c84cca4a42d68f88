package dev.cairn.engine.internal;

import java.util.List;

/**
 * One compaction: {@code inputs} of {@code level} merged with the overlapping {@code next} files
 * of the level below into {@code outputLevel}.
 */
record Compaction(int level, List<FileMeta> inputs, List<FileMeta> next, int outputLevel) {
}
