package dev.cairn.backup.report;

import java.util.List;

/**
 * The JSON report of one backup run, written to {@code reports/<id>.json} in the target and to
 * {@code --report FILE}.
 *
 * @param status     "complete" when the manifest was written, else "failed"
 * @param splitReads where each split was read from (a Cassandra source: datacenter and nodes); empty for a
 *                   source on one host
 */
public record RunReport(
        String backupId,
        String parentId,
        String status,
        String source,
        String target,
        String startedAt,
        String finishedAt,
        double durationSeconds,
        boolean resumed,
        long objects,
        long logicalBytes,
        long copiedBlobs,
        long copiedBytes,
        long skippedObjects,
        double megabytesPerSecond,
        List<String> errors,
        List<SplitRead> splitReads) {
}
