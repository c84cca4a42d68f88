package dev.cairn.backup.restore;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.archive.ManifestHeader;
import dev.cairn.backup.archive.ManifestReader;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.Target;
import dev.cairn.backup.time.JobClock;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.Hex;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Restores one backup (any of the chain: each manifest lists every object) into a destination,
 * optionally only some buckets and a key prefix. Rows go in manifest order, in batches of at
 * least {@link #BATCH_ROWS} rows written in parallel; the versions of one key go in one task,
 * so a batch never ends inside a key: each in its place, or replayed oldest first into a
 * destination that {@link RestoreDestination#replaysVersions replays} them. After each batch
 * the number of rows done is recorded in a state file beside the destination, never in the
 * archive, which a restore only reads ({@code <state dir>/<backup>-<destination hash>.json}; a
 * restore an older job left in the archive's {@code restores/} is resumed from there, read only),
 * so an interrupted restore resumes after
 * the last batch; a resumed replay first removes what the interrupted batch wrote of its keys
 * (batches are cut the same way on every run, so that batch is the resumed run's first). A
 * bucket that already holds objects is refused unless allowed (a resumed restore's own buckets
 * are not refused).
 */
public final class Restore {
    static final int BATCH_ROWS = 1000;
    /**
     * Objects written at once by default: an embedded store shares one log sync among the
     * writes waiting for it, so more writers mean fewer syncs per object.
     */
    public static final int DEFAULT_THREADS = 16;

    /**
     * What a restore did. {@code objects} and {@code bytes} count what it went through, the
     * {@code skipped} objects included (their content damaged in the archive, {@link #skipDamaged}).
     */
    public record Result(long objects, long bytes, boolean resumed, boolean alreadyDone, double seconds,
                         List<SkippedObject> skipped) {
    }

    /**
     * The restore state file's content. {@code keysBefore}: while a batch of a replay that may
     * write on top of other versions ({@code --allow-non-empty}) is written, how many versions
     * each key of the batch held before, in the batch's order; null otherwise (and in files
     * written before it existed). {@code uploads}: the multipart uploads started at the
     * destination and not completed when the file was written (null in files written before it
     * existed: none).
     */
    public record State(String backupId, String destination, String filter, long rowsDone, long objects, long bytes,
                        boolean finished, int pass, List<Integer> keysBefore, List<PendingUpload> uploads) {
        State(String backupId, String destination, String filter, long rowsDone, long objects, long bytes,
              boolean finished, int pass) {
            this(backupId, destination, filter, rowsDone, objects, bytes, finished, pass, null, null);
        }

        public State(String backupId, String destination, String filter, long rowsDone, long objects, long bytes,
                     boolean finished, int pass, List<Integer> keysBefore) {
            this(backupId, destination, filter, rowsDone, objects, bytes, finished, pass, keysBefore, null);
        }

        State withUploads(List<PendingUpload> inFlight) {
            return new State(backupId, destination, filter, rowsDone, objects, bytes, finished, pass, keysBefore, inFlight);
        }
    }

    private final Target archive;
    private final DirectoryTarget stateDirectory;
    private final String backupId;
    private final RestoreDestination destination;
    private final Set<String> buckets;
    private final String prefix;
    private final boolean allowNonEmpty;
    private final int threads;
    private final PrintStream log;
    private RestoreStateFile stateFile;
    private final DamagedBlobs damaged = new DamagedBlobs();
    private boolean skipDamaged;
    private JobClock clock = JobClock.SYSTEM;
    private SkippedObjects skipped;
    private DamageSkippingWrites writes;

    /**
     * @param buckets  only these buckets; empty for all
     * @param prefix   only keys starting with it; "" for all
     * @param stateDir where the restore's progress is recorded (created when absent)
     */
    public Restore(Target archive, String backupId, RestoreDestination destination, Set<String> buckets, String prefix,
                   boolean allowNonEmpty, int threads, PrintStream log, Path stateDir) throws IOException {
        this.archive = archive;
        this.stateDirectory = new DirectoryTarget(stateDir);
        this.backupId = backupId;
        this.destination = destination;
        this.buckets = Set.copyOf(buckets);
        this.prefix = prefix == null ? "" : prefix;
        this.allowNonEmpty = allowNonEmpty;
        this.threads = threads;
        this.log = log;
    }

    private String filter() {
        return "buckets=" + new java.util.TreeSet<>(buckets) + " prefix=" + prefix;
    }

    /**
     * Restores every object whose content can be read and leaves out, listed in the result, those
     * whose blob is missing from the archive or other than its hash names; without it the first
     * such object stops the restore.
     */
    public Restore skipDamaged() {
        this.skipDamaged = true;
        return this;
    }

    /** Goes by {@code clock} (the system's by default): the run's duration, the dates of its upload intents. */
    public Restore clock(JobClock clock) {
        this.clock = clock;
        return this;
    }

    /** This restore's state file. */
    public Path statePath() {
        return stateDirectory.root().resolve(stateName());
    }

    /** The name of this restore's state file in its state directory (an older job's: in the archive's {@code restores/}). */
    private String stateName() {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update((destination.describe() + "\n" + filter()).getBytes(StandardCharsets.UTF_8));
            return backupId + "-" + Hex.encode(md.digest()).substring(0, 16) + ".json";
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    private boolean selected(BackupRow row) {
        return (buckets.isEmpty() || buckets.contains(row.bucket())) && row.key().startsWith(prefix);
    }

    public Result run(Progress progress) throws IOException, InterruptedException {
        long t0 = clock.nanos();
        String manifestName = ArchiveLayout.manifest(backupId);
        String stateName = stateName();
        byte[] saved = stateDirectory.read(stateName);
        String savedWhere = statePath().toString();
        if (saved == null) {
            saved = archive.read(ArchiveLayout.RESTORES + stateName);
            savedWhere = ArchiveLayout.RESTORES + stateName + " in " + archive.describe();
        }
        State state = saved == null ? null : Json.read(saved, State.class, savedWhere);
        String skippedName = stateName.replaceFirst("\\.json$", "") + "-skipped.jsonl";
        skipped = new SkippedObjects(stateDirectory.root().resolve(skippedName));
        skipped.load(state == null);
        writes = new DamageSkippingWrites(damaged, skipDamaged ? skipped : null);
        if (state != null && state.finished()) {
            log.println("restore of " + backupId + " into " + destination.describe() + " was completed before ("
                    + state.objects() + " objects); delete " + savedWhere + " to restore again");
            return new Result(state.objects(), state.bytes(), true, true, 0, skipped.all());
        }
        Set<String> withNull = checkManifest(manifestName);
        int passes = destination.replaysVersions() && !withNull.isEmpty() ? ReplayPasses.COUNT : 1;
        BlobLocations locations = BlobLocations.load(archive);
        for (String problem : locations.problems()) {
            log.println("warning: " + problem + "; objects whose content lies there fail to restore");
        }
        boolean resumed = state != null;
        if (state == null) {
            state = new State(backupId, destination.describe(), filter(), 0, 0, 0, false, 0);
        } else {
            log.println("resuming the restore of " + backupId + " after " + state.rowsDone() + " manifest rows"
                    + (passes > 1 ? " of pass " + (state.pass() + 1) + " of " + passes : ""));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "restore");
            t.setDaemon(true);
            return t;
        });
        try {
            ManifestHeader header;
            try (InputStream in = open(manifestName)) {
                header = new ManifestReader(manifestName, in).header();
            }
            prepareBuckets(header, resumed);
            if (state.uploads() != null && !state.uploads().isEmpty()) {
                log.println("aborting " + state.uploads().size() + " multipart upload(s) the interrupted restore left");
                destination.abortUploads(state.uploads());
            }
            stateFile = new RestoreStateFile(stateDirectory, stateName, state, clock);
            destination.recordUploads(stateFile);
            stateFile.save(state);
            boolean interruptedBatch = resumed;
            for (int pass = state.pass(); pass < passes; pass++) {
                if (passes > 1) {
                    for (String bucket : withNull) {
                        destination.setVersioning(bucket, ReplayPasses.versioningOf(pass));
                    }
                }
                try (InputStream in = open(manifestName)) {
                    state = runPass(new ManifestReader(manifestName, in), pass, state, locations, pool, progress,
                            interruptedBatch, stateName);
                }
                interruptedBatch = false;
                boolean last = pass == passes - 1;
                if (last && destination.replaysVersions()) {
                    for (BucketInfo b : chosen(header)) {
                        if (b.versioning() == Versioning.SUSPENDED) {
                            destination.setVersioning(b.name(), Versioning.SUSPENDED);
                        }
                    }
                }
                state = new State(backupId, destination.describe(), filter(), last ? state.rowsDone() : 0,
                        state.objects(), state.bytes(), last, last ? pass : pass + 1);
                stateFile.save(state);
            }
            return new Result(state.objects(), state.bytes(), resumed, false, (clock.nanos() - t0) / 1e9, skipped.all());
        } finally {
            pool.shutdownNow();
        }
    }

    private InputStream open(String manifestName) throws IOException {
        InputStream in = archive.open(manifestName);
        if (in == null) {
            throw new IOException(archive.describe() + " holds no backup " + backupId);
        }
        return in;
    }

    /**
     * One pass over the manifest ({@link ReplayPasses}; pass 0 is the only one of a restore that
     * replays no {@code null} version), after the rows the state says are done.
     */
    private State runPass(ManifestReader reader, int pass, State state, BlobLocations locations, ExecutorService pool,
                          Progress progress, boolean interruptedBatch, String stateName)
            throws IOException, InterruptedException {
        long ordinal = 0;
        long cut = state.rowsDone();
        long objects = state.objects();
        long bytes = state.bytes();
        progress.objects.set(objects);
        progress.bytes.set(bytes);
        List<Future<?>> batch = new ArrayList<>();
        long batchBytes = 0;
        long batchObjects = 0;
        List<BackupRow> versions = new ArrayList<>();
        // A replay that may write on top of versions it did not write counts each key's first.
        boolean countsKeys = allowNonEmpty && destination.replaysVersions();
        List<ReplayPasses.Slice> keys = new ArrayList<>();
        // The first batch of a resumed pass is the one that was interrupted: its keys are cleared or completed first.
        boolean interrupted = interruptedBatch;
        while (true) {
            BackupRow row = reader.next();
            if (row != null) {
                ordinal++;
            }
            boolean skipped = row != null && (ordinal <= state.rowsDone() || !selected(row));
            if (!versions.isEmpty() && (row == null || skipped || !row.isVersion()
                    || !row.bucket().equals(versions.get(0).bucket()) || !row.key().equals(versions.get(0).key()))) {
                ReplayPasses.Slice slice = ReplayPasses.slice(pass, versions, destination.replaysVersions());
                if (!slice.rows().isEmpty()) {
                    if (countsKeys) {
                        keys.add(slice);
                    } else {
                        batch.add(submitKey(pool, slice, locations, interrupted, progress));
                    }
                    for (BackupRow r : slice.rows()) {
                        batchObjects++;
                        batchBytes += r.size();
                    }
                }
                versions.clear();
            }
            long submitted = row == null ? ordinal : ordinal - 1;
            if (versions.isEmpty() && (row == null || submitted - cut >= BATCH_ROWS)) {
                if (!keys.isEmpty()) {
                    state = submitOnTop(keys, state, interrupted, locations, pool, progress, batch, stateName);
                    keys.clear();
                }
                awaitAll(batch);
                objects += batchObjects;
                bytes += batchBytes;
                batch.clear();
                batchObjects = 0;
                batchBytes = 0;
                if (submitted > state.rowsDone() || row == null) {
                    state = new State(backupId, destination.describe(), filter(), Math.max(submitted, state.rowsDone()),
                            objects, bytes, false, pass);
                    stateFile.save(state);
                    interrupted = false;
                }
                cut = submitted;
            }
            if (row == null) {
                return state;
            }
            if (skipped) {
                continue;
            }
            if (row.isVersion()) {
                versions.add(row);
                continue;
            }
            if (pass > 0) {
                continue;
            }
            batchObjects++;
            batchBytes += row.size();
            batch.add(pool.submit(() -> {
                writes.write(List.of(row), (rows, again) -> destination.put(row,
                        row.hasContent() ? new BlobContent(archive, locations, row.info(), damaged) : null));
                progress.objects.incrementAndGet();
                progress.bytes.addAndGet(row.size());
                return null;
            }));
        }
    }

    /**
     * Submits the keys of a batch of a replay into buckets that may hold versions this restore
     * did not write. Before anything of the batch is written, the number of versions each key
     * holds is recorded in the state file; each key's versions then go on top. A resumed batch
     * takes the recorded numbers, so whatever a key held before, exactly the versions above them
     * are this restore's, the oldest of the key's, and they are not written again.
     */
    private State submitOnTop(List<ReplayPasses.Slice> keys, State state, boolean interrupted, BlobLocations locations,
                              ExecutorService pool, Progress progress, List<Future<?>> batch, String stateName)
            throws IOException, InterruptedException {
        List<Integer> before = interrupted ? state.keysBefore() : null;
        if (interrupted && before == null) {
            for (ReplayPasses.Slice slice : keys) {
                batch.add(submitKey(pool, slice, locations, true, progress));
            }
            return state;
        }
        if (before != null && before.size() != keys.size()) {
            throw new IOException(stateName + " records " + before.size() + " keys for the interrupted batch, which has "
                    + keys.size() + "; delete it to restore again");
        }
        if (before == null) {
            List<Future<Integer>> counts = new ArrayList<>();
            for (ReplayPasses.Slice slice : keys) {
                BackupRow first = slice.rows().get(0);
                counts.add(pool.submit(() -> destination.versionCount(first.bucket(), first.key())));
            }
            awaitAll(new ArrayList<Future<?>>(counts));
            before = new ArrayList<>(counts.size());
            for (Future<Integer> c : counts) {
                try {
                    before.add(c.get());
                } catch (ExecutionException e) {
                    throw new AssertionError(e);
                }
            }
            state = new State(state.backupId(), state.destination(), state.filter(), state.rowsDone(), state.objects(),
                    state.bytes(), false, state.pass(), List.copyOf(before));
            stateFile.save(state);
        }
        for (int i = 0; i < keys.size(); i++) {
            ReplayPasses.Slice slice = keys.get(i);
            int below = before.get(i);
            batch.add(submitKey(pool, new ReplayPasses.Slice(slice.rows(), below, true), locations, interrupted, progress));
        }
        return state;
    }

    /**
     * Writes the versions of one key in one task: replayed oldest first, or given to the
     * destination together ({@link RestoreDestination#putVersions}), which writes each in its place
     * (a store changes a versioned key under the key's lease, which writers of one key in parallel
     * would only contend for; Cassandra takes it once for up to 16 versions).
     */
    private Future<?> submitKey(ExecutorService pool, ReplayPasses.Slice slice, BlobLocations locations,
                                boolean interrupted, Progress progress) {
        List<BackupRow> newestFirst = slice.rows();
        return pool.submit(() -> {
            writes.write(newestFirst, (rows, again) -> {
                List<dev.cairn.store.ContentSource> contents = new ArrayList<>();
                for (BackupRow r : rows) {
                    contents.add(r.hasContent() ? new BlobContent(archive, locations, r.info(), damaged) : null);
                }
                if (!destination.replaysVersions()) {
                    destination.putVersions(rows, contents);
                } else if (!slice.onTop()) {
                    destination.replay(rows, contents, interrupted || again);
                } else {
                    destination.replayOnTop(rows, contents, slice.below(), interrupted || again);
                }
            });
            for (BackupRow r : newestFirst) {
                progress.objects.incrementAndGet();
                progress.bytes.addAndGet(r.size());
            }
            return null;
        });
    }

    /**
     * Reads the whole manifest first: a damaged one is refused before anything is written.
     * Returns the selected buckets that hold a {@code null} version among versions with ids.
     */
    private Set<String> checkManifest(String name) throws IOException {
        Set<String> withNull = new java.util.TreeSet<>();
        try (InputStream in = open(name)) {
            ManifestReader r = new ManifestReader(name, in);
            for (BackupRow row = r.next(); row != null; row = r.next()) {
                if (row.isVersion() && selected(row) && ReplayPasses.isNull(row)) {
                    withNull.add(row.bucket());
                }
            }
        }
        return withNull;
    }

    private List<BucketInfo> chosen(ManifestHeader header) {
        return header.buckets().stream().filter(b -> buckets.isEmpty() || buckets.contains(b.name())).toList();
    }

    private void prepareBuckets(ManifestHeader header, boolean resumed) throws IOException {
        List<BucketInfo> chosen = new ArrayList<>();
        for (BucketInfo b : header.buckets()) {
            if (buckets.isEmpty() || buckets.contains(b.name())) {
                chosen.add(b);
            }
        }
        for (String wanted : buckets) {
            if (header.buckets().stream().noneMatch(b -> b.name().equals(wanted))) {
                throw new IllegalArgumentException("backup " + backupId + " has no bucket " + wanted);
            }
        }
        List<String> versioned = chosen.stream().filter(b -> b.versioning() != Versioning.UNVERSIONED)
                .map(BucketInfo::name).toList();
        if (!versioned.isEmpty() && !destination.restoresVersions()) {
            throw new IllegalArgumentException(destination.describe() + " cannot restore object versions, and bucket(s) "
                    + versioned + " have versioning; restore them into an embedded store or a Cassandra keyspace, into S3 with"
                    + " --replay-versions (new version ids and times), or leave them out (--bucket)");
        }
        if (!resumed && !allowNonEmpty) {
            List<String> nonEmpty = new ArrayList<>();
            for (BucketInfo b : chosen) {
                if (destination.bucketHasObjects(b.name())) {
                    nonEmpty.add(b.name());
                }
            }
            if (!nonEmpty.isEmpty()) {
                throw new IllegalArgumentException(destination.describe() + ": bucket(s) " + nonEmpty
                        + " already hold objects; restore refuses to mix them with the backup's (--allow-non-empty to do it anyway)");
            }
        }
        for (BucketInfo b : chosen) {
            destination.ensureBucket(b);
        }
    }

    private static void awaitAll(List<Future<?>> futures) throws IOException, InterruptedException {
        IOException first = null;
        for (Future<?> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause() instanceof IOException io ? io : new IOException(e.getCause().getMessage(), e.getCause());
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
