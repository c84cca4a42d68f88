package dev.cairn.store.cassandra;

/**
 * What the Cassandra store's settling (the bookkeeping after an answered write: releasing the
 * writes it superseded, reclaiming their content) has done since the store opened, for metrics
 * (docs/cassandra.md, "Metrics").
 *
 * @param backlog    settles queued or running now
 * @param settled    settles run (a group of one key's writes queued together counts once)
 * @param selfSettled settles the writer ran itself before answering, the queue being full
 * @param coalesced  writes that joined a queued settle of their key
 * @param overtaken  settles that found a later write or a delete in the row
 * @param referencesDropped references released
 * @param reclaimed  contents whose last reference went and whose bytes were deleted
 * @param settleNanos time spent settling
 */
public record SettleStats(long backlog, long settled, long selfSettled, long coalesced, long overtaken,
                          long referencesDropped, long reclaimed, long settleNanos) {
}
