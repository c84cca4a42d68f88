package dev.cairn.service.s3;

import java.nio.file.Path;

/**
 * Where upload bodies are held while they are read: in memory when no larger than
 * {@code threshold} and while {@code budget} lasts, otherwise in a file under {@code dir}.
 * Immutable; thread-safe.
 */
public record Spool(Path dir, long threshold, MemoryBudget budget) {
}
