package dev.cairn.engine.cache;

/** What {@link SsdCache#open} does with the segments a previous run left behind. */
public enum SsdRecovery {
    /**
     * Rebuild the index by scanning the segments, verifying every entry's checksum, keeping only
     * the entries the previous run's clean close listed as live. After a crash there is no such
     * list (invalidations since the last close were never made durable), so the segments are
     * dropped.
     */
    REBUILD,
    /** Delete every segment and start empty. */
    DROP
}
