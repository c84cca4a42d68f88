package dev.cairn.engine;

/**
 * How one read behaves.
 *
 * @param snapshot the point in time to read at; null reads the latest state
 * @param fillCache whether blocks and values read may enter caches; scans such as backups pass
 *                  false so that they never push the hot set out
 * @param aroundPageCache whether {@link Table#scanInStorageOrder} reads the value files around the
 *                  operating system's page cache too ({@code O_DIRECT} where the file system
 *                  allows it), in large reads; other reads ignore it. For a backup's traversal,
 *                  never for serving
 */
public record ReadOptions(Snapshot snapshot, boolean fillCache, boolean aroundPageCache) {

    public static final ReadOptions DEFAULT = new ReadOptions(null, true);

    /** A read for full traversals: around the caches, never into them. */
    public static final ReadOptions SCAN = new ReadOptions(null, false);

    /** {@link #SCAN}, with storage-order scans around the page cache as well: a backup's traversal. */
    public static final ReadOptions SCAN_AROUND_PAGE_CACHE = new ReadOptions(null, false, true);

    public ReadOptions(Snapshot snapshot, boolean fillCache) {
        this(snapshot, fillCache, false);
    }

    public static ReadOptions at(Snapshot snapshot) {
        return new ReadOptions(snapshot, true);
    }
}
