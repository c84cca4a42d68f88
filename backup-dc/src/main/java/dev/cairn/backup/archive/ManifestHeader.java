package dev.cairn.backup.archive;

import dev.cairn.store.BucketInfo;
import java.util.List;

/**
 * What a manifest says before its rows.
 *
 * @param backupId       this backup's id; the manifest's name is derived from it
 * @param parentId       the backup that was the newest complete one when this one started; null for the first
 * @param startedMillis  when the run started (epoch millis)
 * @param finishedMillis when the rows were complete and the manifest was written (epoch millis)
 * @param source         the source's description
 * @param buckets        every bucket of the source with its settings, by name
 */
public record ManifestHeader(String backupId, String parentId, long startedMillis, long finishedMillis,
                             String source, List<BucketInfo> buckets) {
    public ManifestHeader {
        buckets = List.copyOf(buckets);
    }
}
