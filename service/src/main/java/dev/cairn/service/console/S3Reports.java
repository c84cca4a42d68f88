package dev.cairn.service.console;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The run reports of an archive in an S3 bucket ({@code s3://bucket/prefix} target), newest first.
 * The first read lists every report; later reads list only from the newest ones seen on (S3's
 * {@code start-after}), since new runs sort after them, and relist all when one of those has
 * gone. A report is fetched again only when its ETag changed (a resumed run rewrites its report).
 * Not thread-safe: {@link BackupHistory} reads on one thread.
 */
final class S3Reports implements BackupHistory.Source {
    /** A bound on one listing: 1000 keys a page. */
    static final int MAX_PAGES = 1000;
    /** A report is a few hundred bytes plus its errors; larger is not one of the job's. */
    static final int MAX_REPORT_BYTES = 4 << 20;

    /** A report read, by the ETag it had; {@code row} null when it was not a report. */
    private record Cached(String etag, Map<String, Object> row) {
    }

    private final ArchiveBucket s3;
    private final String reportsPrefix;
    private final String description;
    /** The newest report keys seen, newest first: the ones shown and the one just older. */
    private List<String> window = List.of();
    private Map<String, Cached> rows = Map.of();

    /** {@code prefix}: the archive's prefix in the bucket, empty or ending in {@code /}. */
    S3Reports(ArchiveBucket s3, String bucket, String prefix) {
        this.s3 = s3;
        this.reportsPrefix = prefix + RunReports.DIRECTORY;
        this.description = "s3://" + bucket + "/" + prefix + " at " + s3.describe();
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public List<Map<String, Object>> newest(int n) throws IOException {
        List<ArchiveBucket.Listed> listed = list(n);
        Map<String, Cached> kept = new HashMap<>();
        List<Map<String, Object>> out = new ArrayList<>();
        for (ArchiveBucket.Listed l : listed) {
            if (out.size() == n) {
                break;
            }
            Cached c = rows.get(l.key());
            if (c == null || !c.etag().equals(l.etag())) {
                byte[] report = s3.get(l.key(), MAX_REPORT_BYTES);
                if (report == null) {
                    continue; // deleted since the listing
                }
                try {
                    c = new Cached(l.etag(), RunReports.row(report));
                } catch (IOException notAReport) {
                    c = new Cached(l.etag(), null); // left out, and not fetched again until it changes
                }
            }
            kept.put(l.key(), c);
            if (c.row() != null) {
                out.add(c.row());
            }
        }
        rows = kept;
        return out;
    }

    /** The report keys, newest first, at least {@code n + 1} of them when the archive has that many. */
    private List<ArchiveBucket.Listed> list(int n) throws IOException {
        List<ArchiveBucket.Listed> listed = null;
        if (window.size() > n) {
            String anchor = window.get(window.size() - 1);
            List<ArchiveBucket.Listed> newer = reports(s3.list(reportsPrefix, anchor, MAX_PAGES));
            TreeSet<String> keys = new TreeSet<>();
            newer.forEach(l -> keys.add(l.key()));
            if (keys.containsAll(window.subList(0, window.size() - 1))) {
                listed = new ArrayList<>(newer);
                listed.add(new ArchiveBucket.Listed(anchor, ""));
            }
        }
        if (listed == null) {
            listed = reports(s3.list(reportsPrefix, null, MAX_PAGES));
        }
        listed.sort((a, b) -> b.key().compareTo(a.key()));
        window = listed.subList(0, Math.min(n + 1, listed.size())).stream().map(ArchiveBucket.Listed::key).toList();
        return listed;
    }

    private static List<ArchiveBucket.Listed> reports(List<ArchiveBucket.Listed> all) {
        List<ArchiveBucket.Listed> out = new ArrayList<>();
        for (ArchiveBucket.Listed l : all) {
            if (l.key().endsWith(RunReports.SUFFIX)) {
                out.add(l);
            }
        }
        return out;
    }
}
