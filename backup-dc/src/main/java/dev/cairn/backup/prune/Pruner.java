package dev.cairn.backup.prune;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.archive.ManifestReader;
import dev.cairn.backup.run.Lease;
import dev.cairn.backup.run.RowChunks;
import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Deletes the manifests retention does not keep, then every blob that no kept manifest and no
 * unfinished run references. It holds the archive's writer lock, the one a backup run holds, so
 * no run writes while it decides (and it refuses while a run holds it). Blobs an unfinished
 * (crashed) run recorded stay, so that the run can resume; blobs it copied after its last
 * checkpoint may go, and the resumed run copies them again.
 */
public final class Pruner {
    private final Target target;
    private final PrintStream log;

    /** What a prune did (or would do, dry). */
    public record Result(int keptBackups, List<String> deletedBackups, long deletedBlobs, long deletedBytes,
                         long liveBlobs, boolean dryRun) {
        public String summary() {
            return String.format("prune%s: kept %d backups, %s %d backups %s, %,d unreferenced blobs (%,d bytes); %,d blobs referenced",
                    dryRun ? " (dry run)" : "", keptBackups, dryRun ? "would delete" : "deleted", deletedBackups.size(),
                    deletedBackups, deletedBlobs, deletedBytes, liveBlobs);
        }
    }

    public Pruner(Target target, PrintStream log) {
        this.target = target;
        this.log = log;
    }

    public Result prune(Retention retention, boolean dryRun, Duration leaseDuration) throws IOException {
        if (!retention.keepsAnything()) {
            throw new IllegalArgumentException("give at least one of --keep-last, --keep-daily, --keep-weekly");
        }
        try (Lease lease = Lease.acquire(target, ArchiveLayout.WRITER_LOCK, "prune", leaseDuration)) {
            List<Catalog.Backup> backups = Catalog.backups(target);
            List<Retention.Candidate> candidates = new ArrayList<>();
            for (Catalog.Backup b : backups) {
                if (b.readable()) {
                    candidates.add(new Retention.Candidate(b.id(), b.header().finishedMillis()));
                } else {
                    log.println("prune: leaving damaged manifest " + b.id() + " alone: " + b.problem());
                }
            }
            Set<String> keep = retention.select(candidates);
            HashSet64 live = new HashSet64();
            for (String id : keep) {
                addManifest(id, live);
            }
            for (String run : Catalog.runs(target)) {
                addRun(run, live);
            }
            List<String> deletedBackups = new ArrayList<>();
            for (Retention.Candidate c : candidates) {
                if (!keep.contains(c.id())) {
                    deletedBackups.add(c.id());
                    if (!dryRun) {
                        lease.check();
                        target.delete(ArchiveLayout.manifest(c.id()));
                        target.delete(ArchiveLayout.report(c.id()));
                    }
                }
            }
            long[] deleted = {0, 0};
            target.list(ArchiveLayout.BLOBS, e -> {
                String sha = ArchiveLayout.blobHash(e.name());
                if (sha != null && !live.contains(sha)) {
                    if (!dryRun) {
                        lease.check();
                        target.delete(e.name());
                    }
                    deleted[0]++;
                    deleted[1] += e.size();
                }
            });
            return new Result(keep.size(), deletedBackups, deleted[0], deleted[1], live.size(), dryRun);
        }
    }

    private void addManifest(String id, HashSet64 live) throws IOException {
        String name = ArchiveLayout.manifest(id);
        try (InputStream in = target.open(name)) {
            if (in == null) {
                throw new IOException("kept manifest " + name + " vanished; prune stopped before deleting blobs");
            }
            ManifestReader r = new ManifestReader(name, in);
            for (BackupRow row = r.next(); row != null; row = r.next()) {
                live.add(row.info().sha256());
            }
        } catch (IOException e) {
            throw new IOException("prune stopped before deleting any blob: " + e.getMessage(), e);
        }
    }

    private void addRun(String runId, HashSet64 live) throws IOException {
        for (Target.Entry e : target.listAll(ArchiveLayout.run(runId) + "rows/")) {
            try (InputStream in = target.open(e.name())) {
                if (in == null) {
                    continue;
                }
                RowChunks.Reader r = new RowChunks.Reader(e.name(), in);
                for (BackupRow row = r.next(); row != null; row = r.next()) {
                    live.add(row.info().sha256());
                }
            }
        }
    }
}
