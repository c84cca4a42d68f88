package dev.cairn.engine;

/**
 * How one read behaves.
 *
 * @param snapshot the point in time to read at; null reads the latest state
 * @param fillCache whether blocks and values read may enter caches; scans such as backups pass
 *                  false so that they never push the hot set out
 */
public record ReadOptions(Snapshot snapshot, boolean fillCache) {

    public static final ReadOptions DEFAULT = new ReadOptions(null, true);

    /** A read for full traversals: around the caches, never into them. */
    public static final ReadOptions SCAN = new ReadOptions(null, false);

    public static ReadOptions at(Snapshot snapshot) {
        return new ReadOptions(snapshot, true);
    }
}
