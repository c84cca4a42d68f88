package dev.cairn.backup.run;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.archive.PackWriter;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.archive.ManifestHeader;
import dev.cairn.backup.archive.ManifestTrailer;
import dev.cairn.backup.archive.ManifestWriter;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.target.Target;
import dev.cairn.backup.time.JobClock;
import dev.cairn.store.BucketInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One backup run: holds the archive lock, resumes the unfinished run of the same source or starts
 * one, scans the source's splits (several in flight) copying each row's content unless the
 * target has it, records each split's progress durably every checkpoint, then merges the rows
 * into the manifest and writes it last. Until the manifest exists the backup is not listed as
 * complete, whatever happened before.
 */
public final class BackupRun {
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /** What a finished run produced. */
    public record Result(String backupId, String parentId, boolean resumed, ManifestHeader header,
                         ManifestTrailer trailer, long skipped, double seconds) {
    }

    private final BackupSource source;
    private final Target target;
    private final RunSettings settings;
    private final PrintStream log;
    private final Progress progress;
    private final JobClock clock;
    private volatile BlobCopier copier;
    private volatile PackWriter packs;
    private volatile ContentPhase contentPhase;
    private volatile AttemptRecord attemptRecord;
    private final Map<String, RunState.SplitProgress> finalProgress = new ConcurrentHashMap<>();
    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    private volatile Lease lease;
    private volatile RunState state;
    private volatile boolean resumed;

    public BackupRun(BackupSource source, Target target, RunSettings settings, PrintStream log, Progress progress) {
        this(source, target, settings, log, progress, JobClock.SYSTEM);
    }

    /** @param clock what the run's ids, lease, checkpoint interval and times are read from */
    public BackupRun(BackupSource source, Target target, RunSettings settings, PrintStream log, Progress progress,
                     JobClock clock) {
        this.source = source;
        this.target = target;
        this.settings = settings;
        this.log = log;
        this.progress = progress;
        this.clock = clock;
    }

    /** The run's id once it started (also when it failed later), else null. */
    public String backupId() {
        return state == null ? null : state.id();
    }

    public String parentId() {
        return state == null ? null : state.parent();
    }

    public boolean resumed() {
        return resumed;
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public Result execute() throws IOException, InterruptedException {
        long t0 = clock.nanos();
        try (Lease held = Lease.acquire(target, ArchiveLayout.WRITER_LOCK, "backup of " + source.describe(),
                source.heldOutside(), settings.leaseDuration(), clock)) {
            lease = held;
            releaseLeftBehind(held.takenOver());
            BlobLocations locations = BlobLocations.load(target);
            for (String p : locations.problems()) {
                warnings.add(p + "; its blobs count as absent and are copied again");
                log.println("warning: " + p + "; its blobs count as absent and are copied again");
            }
            List<BackupSource.Split> splits = source.splits();
            List<BucketInfo> buckets = source.buckets();
            refuseVersionsOmitted(buckets);
            state = resumeOrStart(splits);
            String attempt = ArchiveLayout.attempt(state.id(), ID_TIME.format(clock.instant()) + "-"
                    + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000)));
            try (PackWriter writer = new PackWriter(target, locations, PackWriter.PACK_BYTES);
                 AttemptRecord record = new AttemptRecord(target, attempt,
                         () -> copier == null ? new RunState.Attempt(0, 0) : copier.written(), held,
                         settings.checkpointInterval())) {
                packs = writer;
                attemptRecord = record;
                copier = new BlobCopier(source, target, locations, writer);
                contentPhase = ContentPhase.start(() -> copier.copyAhead(held, progress));
                try {
                    scanAll(splits);
                } catch (IOException | RuntimeException | InterruptedException e) {
                    contentPhase.stop();
                    Throwable first = contentPhase.failure();
                    if (first instanceof IOException io) {
                        throw io; // the rows failed because the content phase did
                    }
                    throw e;
                }
                contentPhase.await();
            }
            held.check();
            Result r = writeManifest(buckets, t0);
            removeRunState(state.id());
            return r;
        }
    }

    /** What the run that held the lock before it left held on the service (its checkpoint), released. */
    private void releaseLeftBehind(Lease.Record stale) {
        if (stale == null) {
            return;
        }
        log.println("the archive's lock of " + stale.owner() + " (" + stale.purpose() + ") was stale: "
                + (stale.holderGone() ? "its process is gone" : "it expired") + "; taken over");
        if (stale.heldOutside() == null) {
            return;
        }
        try {
            if (source.releaseLeftBehind(stale.heldOutside())) {
                log.println("released what that run left held: " + stale.heldOutside());
            }
        } catch (IOException e) {
            log.println("warning: cannot release " + stale.heldOutside() + " (" + e.getMessage()
                    + "); its service releases it when its lease ends");
        }
    }

    /** A source that cannot read versions would record a versioned bucket's current objects only. */
    private void refuseVersionsOmitted(List<BucketInfo> buckets) {
        if (source.suppliesVersions()) {
            return;
        }
        List<String> versioned = buckets.stream().filter(b -> b.versioning() != dev.cairn.store.Versioning.UNVERSIONED)
                .map(BucketInfo::name).toList();
        if (!versioned.isEmpty()) {
            throw new IllegalArgumentException(source.describe() + " cannot read object versions, and bucket(s) "
                    + versioned + " have versioning: a backup of their current objects only would look complete;"
                    + " not started");
        }
    }

    private RunState resumeOrStart(List<BackupSource.Split> splits) throws IOException {
        List<RunState.SplitRecord> records = splits.stream()
                .map(s -> new RunState.SplitRecord(s.id(), s.description())).toList();
        for (String id : Catalog.runs(target)) {
            if (target.size(ArchiveLayout.manifest(id)) >= 0) {
                removeRunState(id); // finished; only its clean-up was interrupted
                continue;
            }
            byte[] bytes = target.read(ArchiveLayout.runState(id));
            RunState old = bytes == null ? null : Json.read(bytes, RunState.class, "run state of " + id);
            if (old != null && old.resumeKeyOrSource().equals(source.resumeKey()) && old.splits().equals(records)) {
                log.println("resuming unfinished backup " + id + " (started "
                        + Instant.ofEpochMilli(old.startedMillis()) + ")");
                resumed = true;
                return old;
            }
            log.println("abandoning unfinished backup " + id + ": "
                    + (old == null ? "no run state" : "it read another source or other splits")
                    + "; its copied blobs stay for the next runs to reuse or prune to remove");
            removeRunState(id);
        }
        long now = clock.millis();
        String id = ID_TIME.format(Instant.ofEpochMilli(now)) + "-"
                + String.format("%04x", ThreadLocalRandom.current().nextInt(0x10000));
        Catalog.Backup parent = Catalog.latest(target);
        RunState fresh = new RunState(id, parent == null ? null : parent.id(), now, source.describe(), records,
                source.resumeKey());
        target.put(ArchiveLayout.runState(id), Json.write(fresh));
        log.println("backup " + id + (parent == null ? " (first of this archive)" : " (parent " + parent.id() + ")")
                + ": " + source.describe() + " -> " + target.describe() + ", " + splits.size() + " splits");
        return fresh;
    }

    private void scanAll(List<BackupSource.Split> splits) throws IOException, InterruptedException {
        ExecutorService scanners = Executors.newFixedThreadPool(settings.splitsInFlight(), daemon("scan"));
        ExecutorService copiers = Executors.newFixedThreadPool(settings.copyThreads(), daemon("copy"));
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (BackupSource.Split split : splits) {
                futures.add(scanners.submit(() -> {
                    scanSplit(split, copiers);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                try {
                    Await.result(f, "the scan of a split");
                } catch (IOException | RuntimeException | Error e) {
                    futures.forEach(other -> other.cancel(true));
                    throw e;
                }
            }
        } finally {
            scanners.shutdownNow();
            copiers.shutdownNow();
            // A failed run returns once its threads stopped, so nothing writes to the archive after it.
            scanners.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
            copiers.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES);
        }
    }

    private void scanSplit(BackupSource.Split split, ExecutorService copiers) throws IOException, InterruptedException {
        String progressName = ArchiveLayout.progress(state.id(), split.id());
        byte[] saved = target.read(progressName);
        SplitScan scan = new SplitScan(split, saved == null ? RunState.SplitProgress.START
                : Json.read(saved, RunState.SplitProgress.class, progressName), copiers);
        if (!scan.progress.done()) {
            source.scan(split, scan.progress.position(), scan);
            scan.checkpoint(true);
        }
        finalProgress.put(split.id(), scan.progress);
    }

    /**
     * The rows of one split since its last checkpoint, their copies in flight and where a chunk of them can end.
     * While the content phase runs they are held (up to {@link ContentPhase#rowsHeldPerSplit});
     * then recorded a checkpoint's worth at a time, each as soon as its copies completed, so that
     * a run killed meanwhile resumes as close to where it stopped as without the overlap.
     */
    private final class SplitScan implements BackupSource.RowSink {
        final BackupSource.Split split;
        final ExecutorService copiers;
        RunState.SplitProgress progress;
        final List<BackupRow> rows = new ArrayList<>();
        final List<Future<BlobCopier.Outcome>> copies = new ArrayList<>();
        /** The position of every {@code --checkpoint-rows}-th row held, where a recorded chunk of them can end. */
        final List<String> chunkEnds = new ArrayList<>();
        String position;
        long lastCheckpointNanos = clock.nanos();

        SplitScan(BackupSource.Split split, RunState.SplitProgress saved, ExecutorService copiers) {
            this.split = split;
            this.progress = saved;
            this.position = saved.position();
            this.copiers = copiers;
            if (saved.rows() > 0) {
                BackupRun.this.progress.objects.addAndGet(saved.rows());
                BackupRun.this.progress.bytes.addAndGet(saved.logicalBytes());
            }
        }

        @Override
        public void accept(String bucket, dev.cairn.store.ObjectInfo info, long[] partSizes, String rowPosition)
                throws IOException {
            add(new BackupRow(bucket, info, fitting(bucket, info, partSizes)), rowPosition);
        }

        /** The sizes when they describe the row; a layout that does not is left out (and said), not the row. */
        private long[] fitting(String bucket, dev.cairn.store.ObjectInfo info, long[] partSizes) {
            String wrong = partSizes == null ? null : dev.cairn.store.VersionRecord.wrongLayout(info, partSizes);
            if (wrong == null) {
                return partSizes;
            }
            warnings.add(bucket + "/" + info.key() + ": its part layout is not recorded (" + wrong
                    + "); a restore keeps its ETag and part count only");
            return null;
        }

        @Override
        public void acceptVersion(String bucket, dev.cairn.store.VersionRecord version, String rowPosition)
                throws IOException {
            add(BackupRow.ofVersion(bucket, version), rowPosition);
        }

        private void add(BackupRow row, String rowPosition) throws IOException {
            if (Thread.currentThread().isInterrupted()) {
                throw new java.io.InterruptedIOException("scan of " + split.id() + " stopped");
            }
            lease.check();
            rows.add(row);
            if (contentPhase.isDone()) {
                contentPhase.await(); // throws its failure
                copies.add(startCopy(row));
            } else {
                copies.add(null); // started once the phase ended: until then the archive cannot say what it copied
            }
            position = rowPosition;
            if (rows.size() % settings.checkpointRows() == 0) {
                chunkEnds.add(rowPosition);
            }
            boolean due = rows.size() >= settings.checkpointRows()
                    || clock.nanos() - lastCheckpointNanos >= settings.checkpointInterval().toNanos();
            if (due && (contentPhase.isDone()
                    || rows.size() >= ContentPhase.rowsHeldPerSplit(settings.splitsInFlight(), settings.checkpointRows()))) {
                checkpoint(false);
            }
        }

        /** A row's copy: done at once when its content needs no read (most, after the content phase), else on a copy thread. */
        private Future<BlobCopier.Outcome> startCopy(BackupRow row) {
            BlobCopier.Outcome present = row.hasContent() ? copier.ifPresent(row.info()) : BlobCopier.Outcome.PRESENT;
            if (present != null) {
                return java.util.concurrent.CompletableFuture.completedFuture(present);
            }
            return copiers.submit(() -> copier.ensure(row.bucket(), row.info()));
        }

        /**
         * Records the rows held, in chunks of at most {@code --checkpoint-rows}, in order: each
         * once its copies completed (see {@link #record}). With {@code done}, the last record
         * says the split is complete.
         */
        void checkpoint(boolean done) throws IOException {
            contentPhase.await();
            for (int i = 0; i < copies.size(); i++) {
                if (copies.get(i) == null) {
                    copies.set(i, startCopy(rows.get(i)));
                }
            }
            int from = 0;
            do {
                int to = Math.min(rows.size(), from + settings.checkpointRows());
                record(from, to, done && to == rows.size());
                from = to;
            } while (from < rows.size());
            rows.clear();
            copies.clear();
            chunkEnds.clear();
            lastCheckpointNanos = clock.nanos();
        }

        /**
         * Waits for the copies of held rows {@code [from, to)}, makes them durable (the packs
         * holding them sealed and indexed, blobs stored alone synced), then records the rows as
         * one chunk and the position of the last of them.
         */
        private void record(int from, int to, boolean done) throws IOException {
            List<BackupRow> kept = new ArrayList<>(to - from);
            long bytes = 0;
            long copiedBlobs = 0;
            long copiedBytes = 0;
            long skipped = 0;
            for (int i = from; i < to; i++) {
                BackupRow row = rows.get(i);
                BlobCopier.Outcome outcome = Await.result(copies.get(i), "a copy");
                if (outcome == BlobCopier.Outcome.MISSING_IN_SOURCE) {
                    skipped++;
                    warnings.add(row.bucket() + "/" + row.info().key() + ": its content " + row.info().sha256()
                            + " is gone from the source (deleted during the scan); not in this backup");
                    continue;
                }
                if (outcome == BlobCopier.Outcome.COPIED || outcome == BlobCopier.Outcome.COPIED_AHEAD) {
                    copiedBlobs++;
                    copiedBytes += row.info().size();
                }
                if (outcome == BlobCopier.Outcome.COPIED) {
                    BackupRun.this.progress.copiedBlobs.incrementAndGet();
                    BackupRun.this.progress.copiedBytes.addAndGet(row.info().size());
                }
                BackupRun.this.progress.objects.incrementAndGet();
                if (outcome != BlobCopier.Outcome.COPIED_AHEAD) {
                    BackupRun.this.progress.bytes.addAndGet(row.size()); // content copied ahead counted when read
                }
                bytes += row.size();
                kept.add(row);
            }
            lease.check();
            packs.flush();
            target.sync();
            attemptRecord.record(); // first: rows recorded are never missing from the copies counted
            int chunks = progress.chunks();
            if (!kept.isEmpty()) {
                kept.sort(BackupRow.ORDER);
                target.put(ArchiveLayout.rowChunk(state.id(), split.id(), chunks), RowChunks.encode(kept));
                chunks++;
            }
            String at = to == rows.size() ? position : chunkEnds.get(to / settings.checkpointRows() - 1);
            progress = new RunState.SplitProgress(at, chunks, progress.rows() + kept.size(),
                    progress.logicalBytes() + bytes, progress.copiedBlobs() + copiedBlobs,
                    progress.copiedBytes() + copiedBytes, progress.skipped() + skipped, done);
            target.put(ArchiveLayout.progress(state.id(), split.id()), Json.write(progress));
            target.sync();
        }
    }

    private Result writeManifest(List<BucketInfo> buckets, long startNanos) throws IOException {
        Path work = Files.createTempDirectory("cairn-backup-merge");
        try {
            List<Path> chunkFiles = new ArrayList<>();
            long skipped = 0;
            for (RunState.SplitRecord split : state.splits()) {
                RunState.SplitProgress p = Objects.requireNonNull(finalProgress.get(split.id()), split.id());
                skipped += p.skipped();
                for (int seq = 0; seq < p.chunks(); seq++) {
                    String name = ArchiveLayout.rowChunk(state.id(), split.id(), seq);
                    Path local = work.resolve(chunkFiles.size() + ".rows");
                    try (InputStream in = target.open(name)) {
                        if (in == null) {
                            throw new IOException(target.describe() + ": row chunk " + name + " is missing; "
                                    + "the run state is damaged");
                        }
                        Files.copy(in, local);
                    }
                    chunkFiles.add(local);
                }
            }
            long finished = clock.millis();
            ManifestHeader header = new ManifestHeader(state.id(), state.parent(), state.startedMillis(), finished,
                    state.source(), buckets);
            Path manifest = work.resolve("manifest");
            ManifestTrailer trailer;
            try (OutputStream out = Files.newOutputStream(manifest); ManifestWriter w = new ManifestWriter(out, header)) {
                RowMerge.merge(chunkFiles, work, w::add);
                RunState.Attempt copied = AttemptRecord.total(target, state.id());
                trailer = w.finish(copied.copiedBlobs(), copied.copiedBytes());
            }
            target.sync();
            lease.check();
            target.put(ArchiveLayout.manifest(state.id()), manifest);
            target.sync();
            // The run's time ends with the manifest in place: until then nothing is backed up.
            double seconds = (clock.nanos() - startNanos) / 1e9;
            return new Result(state.id(), state.parent(), resumed, header, trailer, skipped, seconds);
        } finally {
            deleteTree(work);
        }
    }

    private void removeRunState(String id) throws IOException {
        List<Target.Entry> files = target.listAll(ArchiveLayout.run(id));
        String stateName = ArchiveLayout.runState(id);
        for (Target.Entry e : files) {
            if (!e.name().equals(stateName)) {
                target.delete(e.name());
            }
        }
        target.delete(stateName); // last: while it exists, the run is known
    }

    static void deleteTree(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory; the OS cleans up what is left
        }
    }

    static java.util.concurrent.ThreadFactory daemon(String name) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
