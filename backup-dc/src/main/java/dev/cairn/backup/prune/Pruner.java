package dev.cairn.backup.prune;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.archive.ManifestReader;
import dev.cairn.backup.archive.PackFormat;
import dev.cairn.backup.archive.PackListing;
import dev.cairn.backup.run.Lease;
import dev.cairn.backup.run.RowChunks;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.Target;
import dev.cairn.backup.time.JobClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Deletes the manifests retention does not keep, then every blob that no kept manifest and no
 * unfinished run references: a blob stored alone is deleted; a pack is deleted (its index first,
 * then the pack) when none of its blobs is referenced, and kept whole while any is — packs are
 * never rewritten by prune, so a pack's bytes are reclaimed once its last blob is unreferenced.
 * A pack without an index (left by a run that died before sealing it) is deleted, and so are, in a
 * directory, the temporary files of writers killed mid-write (last written longer ago than the
 * lease's duration: a writer that lost the lock and has not noticed yet is left alone) and the
 * folders of runs that finished or were abandoned. It holds the archive's writer lock, the one a backup run holds, so
 * no run writes while it decides (and it refuses while a run holds it). Blobs an unfinished
 * (crashed) run recorded stay, so that the run can resume; blobs it copied after its last
 * checkpoint may go, and the resumed run copies them again.
 */
public final class Pruner {
    private final Target target;
    private final PrintStream log;
    private final JobClock clock;

    /** Where the holders of the writer lock write through temporary files. */
    private static final List<String> LOCKED_PREFIXES = List.of(ArchiveLayout.PACKS, ArchiveLayout.BLOBS,
            ArchiveLayout.MANIFESTS, ArchiveLayout.RUNS);

    /** What a prune did (or would do, dry). */
    public record Result(int keptBackups, List<String> deletedBackups, long deletedBlobs, long deletedBytes,
                         long liveBlobs, boolean dryRun, long deletedPacks, long keptPacks, long deadBytesInKeptPacks,
                         long temporaryFiles, long temporaryBytes, List<String> removedRuns) {
        public String summary() {
            return String.format("prune%s: kept %d backups, %s %d backups %s, %,d unreferenced blobs (%,d bytes, %,d whole "
                            + "packs among them), %,d temporary files of killed writers (%,d bytes), %d finished or "
                            + "abandoned run folders %s; %,d blobs referenced; %,d packs kept, holding %,d bytes of "
                            + "unreferenced blobs",
                    dryRun ? " (dry run)" : "", keptBackups, dryRun ? "would delete" : "deleted", deletedBackups.size(),
                    deletedBackups, deletedBlobs, deletedBytes, deletedPacks, temporaryFiles, temporaryBytes,
                    removedRuns.size(), removedRuns, liveBlobs, keptPacks, deadBytesInKeptPacks);
        }
    }

    public Pruner(Target target, PrintStream log) {
        this(target, log, JobClock.SYSTEM);
    }

    /** @param clock what the lease and the age of temporary files are reckoned by */
    public Pruner(Target target, PrintStream log, JobClock clock) {
        this.target = target;
        this.log = log;
        this.clock = clock;
    }

    public Result prune(Retention retention, boolean dryRun, Duration leaseDuration) throws IOException {
        if (!retention.keepsAnything()) {
            throw new IllegalArgumentException("give at least one of --keep-last, --keep-daily, --keep-weekly");
        }
        try (Lease lease = Lease.acquire(target, ArchiveLayout.WRITER_LOCK, "prune", null, leaseDuration, clock)) {
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
            List<String> removedRuns = new ArrayList<>();
            for (String run : Catalog.runs(target)) {
                if (target.size(ArchiveLayout.manifest(run)) >= 0 || target.size(ArchiveLayout.runState(run)) < 0) {
                    removedRuns.add(run); // finished (its clean-up was interrupted), or its state is gone: nothing resumes it
                } else {
                    addRun(run, live);
                }
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
            long[] packs = prunePacks(live, dryRun, lease);
            for (String run : removedRuns) {
                log.println("prune: " + (dryRun ? "would remove " : "removing ") + ArchiveLayout.run(run)
                        + ", the folder of a run that finished or was abandoned");
                if (!dryRun) {
                    lease.check();
                    removeRun(run);
                }
            }
            long[] temporaries = {0, 0};
            if (target instanceof DirectoryTarget dir) {
                // A writer that lost the lock stops within a lease's duration; its younger files are left alone.
                long olderThan = clock.millis() - leaseDuration.toMillis();
                for (String prefix : LOCKED_PREFIXES) {
                    for (Target.Entry e : dir.abandonedTemporaries(prefix, olderThan)) {
                        log.println("prune: " + (dryRun ? "would remove " : "removing ") + e.name() + " (" + e.size()
                                + " bytes), a temporary file of a writer killed mid-write");
                        if (!dryRun) {
                            lease.check();
                            dir.delete(e.name());
                        }
                        temporaries[0]++;
                        temporaries[1] += e.size();
                    }
                }
                if (!dryRun) {
                    dir.removeEmptyDirectories(ArchiveLayout.RUNS);
                }
            }
            return new Result(keep.size(), deletedBackups, deleted[0] + packs[0], deleted[1] + packs[1], live.size(), dryRun,
                    packs[2], packs[3], packs[4], temporaries[0], temporaries[1], removedRuns);
        }
    }

    /**
     * Deletes the packs none of whose blobs is live, index first (from then on the pack is not
     * part of the archive), and the packs that have no index. Returns blobs and bytes deleted,
     * packs deleted, packs kept and the unreferenced bytes those hold.
     */
    private long[] prunePacks(HashSet64 live, boolean dryRun, Lease lease) throws IOException {
        long[] out = new long[5];
        PackListing listing = PackListing.of(target);
        for (var pack : listing.packSizes().entrySet()) {
            String id = pack.getKey();
            if (!listing.indexSizes().containsKey(id)) {
                log.println("prune: removing " + ArchiveLayout.pack(id) + ", which has no index (a run died before sealing it)");
                if (!dryRun) {
                    lease.check();
                    target.delete(ArchiveLayout.pack(id));
                }
                continue;
            }
            PackFormat.Index index;
            try {
                index = PackListing.readIndex(target, id);
            } catch (IOException e) {
                log.println("prune: leaving pack " + id + " alone: " + e.getMessage());
                continue;
            }
            long liveBlobs = 0;
            long deadBytes = 0;
            for (PackFormat.IndexEntry e : index.entries()) {
                if (live.contains(e.sha256())) {
                    liveBlobs++;
                } else {
                    deadBytes += e.length();
                }
            }
            if (liveBlobs > 0) {
                out[3]++;
                out[4] += deadBytes;
                continue;
            }
            if (!dryRun) {
                lease.check();
                target.delete(ArchiveLayout.packIndex(id));
                target.delete(ArchiveLayout.pack(id));
            }
            out[0] += index.entries().size();
            out[1] += deadBytes;
            out[2]++;
        }
        return out;
    }

    /** Deletes a run's files, its state last (as a run removes its own). */
    private void removeRun(String runId) throws IOException {
        String state = ArchiveLayout.runState(runId);
        for (Target.Entry e : target.listAll(ArchiveLayout.run(runId))) {
            if (!e.name().equals(state)) {
                target.delete(e.name());
            }
        }
        target.delete(state);
    }

    private void addManifest(String id, HashSet64 live) throws IOException {
        String name = ArchiveLayout.manifest(id);
        try (InputStream in = target.open(name)) {
            if (in == null) {
                throw new IOException("kept manifest " + name + " vanished; prune stopped before deleting blobs");
            }
            ManifestReader r = new ManifestReader(name, in);
            for (BackupRow row = r.next(); row != null; row = r.next()) {
                if (row.hasContent()) {
                    live.add(row.info().sha256());
                }
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
                    if (row.hasContent()) {
                        live.add(row.info().sha256());
                    }
                }
            }
        }
    }
}
