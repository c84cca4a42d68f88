package dev.cairn.store.embedded;

/**
 * How a checkpoint is read ({@link CheckpointScan}).
 *
 * @param aroundCaches   true: reads fill neither the engine's caches nor, for content read in
 *                       storage order, the kernel's page cache; false: reads go through them
 * @param bytesPerSecond the rate rows, part layouts and content are read at together, a burst
 *                       holding at most one second of it; 0: unlimited
 * @param priority       of every thread that reads, and of the threads the caller puts at it
 *                       ({@link CheckpointScan#adoptPriority})
 */
public record ScanOptions(boolean aroundCaches, long bytesPerSecond, ScanPriority priority) {
    /** Through every cache, unlimited, at the caller's priority: a baseline to compare with. */
    public static final ScanOptions THROUGH_CACHES = new ScanOptions(false, 0, ScanPriority.NORMAL);

    public ScanOptions {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("a read rate cannot be negative");
        }
        if (priority == null) {
            throw new IllegalArgumentException("priority is required");
        }
    }
}
