package dev.cairn.backup.verify;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.archive.PackFormat;
import dev.cairn.backup.archive.PackListing;
import dev.cairn.backup.archive.PackReader;
import dev.cairn.backup.archive.PackWriter;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.archive.ManifestReader;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.RestoreStateDirs;
import dev.cairn.backup.restore.StoreDestination;
import dev.cairn.backup.run.Await;
import dev.cairn.backup.run.HashCheckingInputStream;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.Target;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks an archive: every manifest resolves (its checksum holds, every row's blob is present
 * with the row's size, alone or in a pack), every blob's content hashes to its name (each pack
 * read front to back, each blob in it checked against the pack's index), and, as a drill, a backup
 * restores into a scratch embedded store whose every object matches its row byte for byte (by
 * SHA-256) and by metadata. Each problem is one line; none found means none exist at the level
 * checked.
 */
public final class Verifier {
    private final Target target;
    private final PrintStream log;
    private final int threads;
    private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
    public final AtomicLong blobsChecked = new AtomicLong();
    public final AtomicLong blobBytesChecked = new AtomicLong();
    public final AtomicLong rowsChecked = new AtomicLong();
    public final AtomicLong packsChecked = new AtomicLong();
    private BlobLocations locations;

    public Verifier(Target target, PrintStream log, int threads) {
        this.target = target;
        this.log = log;
        this.threads = threads;
    }

    public List<String> problems() {
        return List.copyOf(problems);
    }

    private void problem(String p) {
        problems.add(p);
        log.println("PROBLEM: " + p);
    }

    private synchronized BlobLocations locations() throws IOException {
        if (locations == null) {
            locations = BlobLocations.load(target);
            locations.problems().forEach(this::problem);
        }
        return locations;
    }

    /** The manifests of these backups (all readable and damaged ones when null). */
    public void verifyManifests(String onlyId) throws IOException {
        BlobLocations where = locations();
        Set<String> present = ConcurrentHashMap.newKeySet();
        for (Catalog.Backup b : Catalog.backups(target)) {
            if (onlyId != null && !onlyId.equals(b.id())) {
                continue;
            }
            if (!b.readable()) {
                problem("manifest " + b.id() + ": " + b.problem());
                continue;
            }
            String name = ArchiveLayout.manifest(b.id());
            try (InputStream in = target.open(name)) {
                ManifestReader r = new ManifestReader(name, in);
                for (BackupRow row = r.next(); row != null; row = r.next()) {
                    rowsChecked.incrementAndGet();
                    if (!row.hasContent()) {
                        continue;
                    }
                    String sha = row.info().sha256();
                    if (present.contains(sha + row.info().size())) {
                        continue;
                    }
                    long size = where.size(sha);
                    if (size < 0) {
                        problem("backup " + b.id() + ": " + row.bucket() + "/" + row.key() + ": blob " + sha + " is missing");
                    } else if (size != row.info().size()) {
                        problem("backup " + b.id() + ": " + row.bucket() + "/" + row.key() + ": blob " + sha
                                + " holds " + size + " bytes, the row says " + row.info().size());
                    } else {
                        present.add(sha + row.info().size());
                    }
                }
            } catch (IOException e) {
                if (e.getMessage() != null && e.getMessage().startsWith(name)) {
                    problem(e.getMessage());
                } else {
                    throw e;
                }
            }
        }
    }

    /**
     * Re-hashes every blob, alone or in a pack; with {@code deleteCorrupt}, removes those whose
     * content does not match their name (a pack holding one is rewritten without it).
     */
    public void verifyBlobs(boolean deleteCorrupt) throws IOException, InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<?>> pending = new ArrayList<>();
        try {
            PackListing listing = PackListing.of(target);
            for (String id : listing.indexSizes().keySet()) {
                if (listing.packSizes().containsKey(id)) {
                    pending.add(pool.submit(() -> {
                        checkPack(id, deleteCorrupt);
                        return null;
                    }));
                }
            }
            for (String id : listing.packSizes().keySet()) {
                if (!listing.indexSizes().containsKey(id)) {
                    log.println("verify: " + ArchiveLayout.pack(id) + " has no index: left by an interrupted run, never "
                            + "part of the archive; prune removes it");
                }
            }
            target.list(ArchiveLayout.BLOBS, e -> {
                String sha = ArchiveLayout.blobHash(e.name());
                if (sha == null) {
                    return;
                }
                pending.add(pool.submit(() -> {
                    checkBlob(e, sha, deleteCorrupt);
                    return null;
                }));
                if (pending.size() >= 10_000) {
                    drain(pending);
                }
            });
            drain(pending);
        } finally {
            pool.shutdownNow();
        }
    }

    private void drain(List<Future<?>> pending) throws IOException {
        for (Future<?> f : pending) {
            Await.result(f, "a blob's check");
        }
        pending.clear();
    }

    private void checkBlob(Target.Entry e, String sha, boolean deleteCorrupt) throws IOException {
        try (InputStream in = target.open(e.name())) {
            if (in == null) {
                return; // deleted since listed
            }
            HashCheckingInputStream check = new HashCheckingInputStream(in, sha, e.size(), "blob " + e.name());
            long n = check.drain();
            blobsChecked.incrementAndGet();
            blobBytesChecked.addAndGet(n);
        } catch (dev.cairn.backup.target.SourceReadException bad) {
            problem("corrupt " + bad.getMessage() + (deleteCorrupt ? "; deleted, the next backup copies it again" : ""));
            if (deleteCorrupt) {
                target.delete(e.name());
            }
        }
    }

    /**
     * Reads a pack front to back: every blob where its index says, of the length it says, hashing
     * to its name; the pack's own framing intact.
     */
    private void checkPack(String id, boolean deleteCorrupt) throws IOException {
        String name = ArchiveLayout.pack(id);
        PackFormat.Index index;
        try {
            index = PackListing.readIndex(target, id);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(ArchiveLayout.packIndex(id))) {
                return; // reported by locations()
            }
            throw e;
        }
        java.util.Map<Long, PackFormat.IndexEntry> byOffset = new java.util.HashMap<>();
        for (PackFormat.IndexEntry e : index.entries()) {
            byOffset.put(e.offset(), e);
        }
        Set<String> bad = new java.util.HashSet<>();
        try (InputStream in = target.open(name)) {
            if (in == null) {
                return; // removed since listed
            }
            PackReader reader = new PackReader(name, in);
            if (!reader.packId().equals(id)) {
                problem(name + ": its header names pack " + reader.packId());
            }
            for (PackReader.Entry e = reader.next(); e != null; e = reader.next()) {
                PackFormat.IndexEntry listed = byOffset.remove(e.offset());
                if (listed == null || !listed.sha256().equals(e.sha256()) || listed.length() != e.length()) {
                    problem(name + ": the blob at offset " + e.offset() + " (" + e.sha256() + ", " + e.length()
                            + " bytes) is not the one its index names there");
                    if (listed != null) {
                        bad.add(listed.sha256());
                    }
                }
                try {
                    long n = new HashCheckingInputStream(e.content(), e.sha256(), e.length(),
                            "blob " + e.sha256() + " in " + name + " at offset " + e.offset()).drain();
                    blobsChecked.incrementAndGet();
                    blobBytesChecked.addAndGet(n);
                } catch (dev.cairn.backup.target.SourceReadException corrupt) {
                    problem("corrupt " + corrupt.getMessage()
                            + (deleteCorrupt ? "; the pack is rewritten without it, the next backup copies it again" : ""));
                    bad.add(e.sha256());
                }
            }
        } catch (IOException damaged) {
            if (damaged.getMessage() == null || !damaged.getMessage().startsWith(name)) {
                throw damaged;
            }
            problem(damaged.getMessage());
        }
        for (PackFormat.IndexEntry missed : byOffset.values()) {
            if (!bad.contains(missed.sha256())) {
                problem(name + ": blob " + missed.sha256() + " its index places at offset " + missed.offset()
                        + " could not be checked there");
                bad.add(missed.sha256());
            }
        }
        packsChecked.incrementAndGet();
        if (deleteCorrupt && !bad.isEmpty()) {
            rewritePack(index, bad);
        }
    }

    /**
     * Copies every blob of the pack that still hashes to its name (read by its index's range)
     * into a new pack, seals it, then removes the old index and pack: at no moment is a good blob
     * in no indexed pack.
     */
    private void rewritePack(PackFormat.Index index, Set<String> bad) throws IOException {
        String name = ArchiveLayout.pack(index.packId());
        long kept = 0;
        try (PackWriter writer = new PackWriter(target, new BlobLocations(), PackWriter.PACK_BYTES)) {
            for (PackFormat.IndexEntry e : index.entries()) {
                if (bad.contains(e.sha256())) {
                    continue;
                }
                try (InputStream in = target.open(name, e.offset(), e.length())) {
                    byte[] bytes = new HashCheckingInputStream(in, e.sha256(), e.length(), "blob " + e.sha256())
                            .readAllBytes();
                    writer.append(e.sha256(), bytes, bytes.length);
                    kept++;
                } catch (dev.cairn.backup.target.SourceReadException unreadable) {
                    // damaged too: left out
                }
            }
            writer.flush();
        }
        target.delete(ArchiveLayout.packIndex(index.packId()));
        target.delete(name);
        log.println("verify: rewrote " + name + " without " + bad.size() + " corrupt blob(s); " + kept + " kept");
    }

    /** Restores the backup into a scratch embedded store and compares every object with its row. */
    public void restoreDrill(String backupId) throws IOException, InterruptedException {
        Catalog.Backup backup = Catalog.find(target, backupId);
        Path scratch = Files.createTempDirectory("cairn-restore-drill");
        try (EmbeddedStoreDir store = EmbeddedStoreDir.open(scratch.resolve("store"));
             StoreDestination dest = new StoreDestination(store.store(), "scratch store " + scratch, null)) {
            // The drill's restore state goes with its scratch directory: each drill is a fresh restore.
            Restore restore = new Restore(target, backup.id(), dest, Set.of(), "", false, threads, log,
                    RestoreStateDirs.besideStore(scratch));
            try (Progress progress = Progress.onStderr("restore drill", backup.trailer().objects())) {
                restore.run(progress);
            }
            compare(backup.id(), store);
        } finally {
            deleteTree(scratch);
        }
    }

    private void compare(String backupId, EmbeddedStoreDir store) throws IOException {
        String name = ArchiveLayout.manifest(backupId);
        long compared = 0;
        try (InputStream in = target.open(name)) {
            ManifestReader r = new ManifestReader(name, in);
            for (BackupRow row = r.next(); row != null; row = r.next()) {
                String where = "drill of " + backupId + ": " + row.bucket() + "/" + row.key()
                        + (row.isVersion() ? " version " + row.version().version().versionId() : "");
                try {
                    if (compareRow(store, row, where)) {
                        compared++;
                    }
                } catch (dev.cairn.backup.target.SourceReadException bad) {
                    problem(bad.getMessage());
                }
            }
        }
        log.println("restore drill: " + compared + " rows (objects, versions, delete markers) restored and equal by SHA-256 and metadata");
    }

    /** Whether the restored row (or version) equals the backed-up one in every field and byte; a problem if not. */
    private boolean compareRow(EmbeddedStoreDir store, BackupRow row, String where) throws IOException {
        if (row.isVersion()) {
            ObjectVersion want = row.version().version();
            ObjectVersion got = store.store().objectVersion(row.bucket(), row.key(), want.versionId());
            if (got == null) {
                problem(where + ": not restored");
                return false;
            }
            if (got.deleteMarker() != want.deleteMarker() || got.lastModified() != want.lastModified()) {
                problem(where + ": restored version differs: " + got + " vs " + want);
                return false;
            }
            if (want.deleteMarker()) {
                return true;
            }
        }
        try (ObjectRead read = row.isVersion()
                ? store.store().getObjectVersion(row.bucket(), row.key(), row.version().version().versionId())
                : store.store().getObject(row.bucket(), row.key())) {
            if (read == null) {
                problem(where + ": not restored");
                return false;
            }
            ObjectInfo got = read.info();
            ObjectInfo want = row.info();
            if (!got.sha256().equals(want.sha256()) || !Objects.equals(got.attributes(), want.attributes())
                    || !Objects.equals(got.etag(), want.etag()) || got.lastModified() != want.lastModified()
                    || got.partCount() != want.partCount() || !got.checksums().equals(want.checksums())) {
                problem(where + ": restored row differs: " + got + " vs " + want);
                return false;
            }
            try (InputStream content = read.open(0, read.size())) {
                new HashCheckingInputStream(content, want.sha256(), want.size(), where).drain();
            }
            return true;
        }
    }

    static void deleteTree(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory
        }
    }
}
