package dev.cairn.backup;

import dev.cairn.backup.cli.SourceFactory;
import dev.cairn.backup.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.archive.ManifestWriter;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.archive.PackFormat;
import dev.cairn.backup.archive.PackListing;
import dev.cairn.backup.archive.PackWriter;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.ForwardingBackupSource;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.Target;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Small blobs in packs: round trip, interrupted packs, prune, verify, dump, and archives written before packs. */
class PackArchiveTest {
    @TempDir
    Path dir;
    private EmbeddedStoreDir source;
    private ObjectStore store;
    private DirectoryTarget target;
    /** When positive, the source's content read of that ordinal fails. */
    private final AtomicInteger failAtRead = new AtomicInteger();
    private final AtomicInteger reads = new AtomicInteger();

    @BeforeEach
    void open() throws IOException {
        source = EmbeddedStoreDir.open(dir.resolve("source"));
        store = source.store();
        target = new DirectoryTarget(dir.resolve("archive"));
    }

    @AfterEach
    void close() throws IOException {
        source.close();
    }

    private int cli(String... args) {
        SourceFactory factory = options -> new FailingSource(new ObjectStoreSource(store, "test store", 50, null));
        return Main.commandLine(factory).execute(args);
    }

    private int checkpointRows = 40;

    private int backup(String... extra) {
        List<String> args = new ArrayList<>(List.of("run", "--source", "embedded", "--target", "dir:" + target.root(),
                "--checkpoint-rows", Integer.toString(checkpointRows), "--report", dir.resolve("report.json").toString()));
        args.addAll(List.of(extra));
        return cli(args.toArray(String[]::new));
    }

    private RunReport lastReport() throws IOException {
        return Json.read(Files.readAllBytes(dir.resolve("report.json")), RunReport.class, "report");
    }

    private TreeMap<String, String> restore(String into) throws IOException {
        assertEquals(0, cli("restore", "--target", "dir:" + target.root(), "--into", "embedded:" + dir.resolve(into)));
        try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(dir.resolve(into))) {
            return StoreFixture.snapshot(restored.store());
        }
    }

    /** 200 small objects in two buckets and one of 1.5 MiB, stored alone. */
    private void seed() throws IOException {
        store.createBucket("photos", BucketAcl.PUBLIC_READ);
        store.createBucket("docs", BucketAcl.PRIVATE);
        for (int i = 0; i < 200; i++) {
            Seed.put(store, i % 2 == 0 ? "photos" : "docs", "k" + i, Seed.bytes(50 + (i * 613) % 20_000, i),
                    Seed.attributes(i));
        }
        Seed.put(store, "photos", "big", Seed.bytes(3 << 19, 7), Seed.attributes(7));
    }

    private static String sha(byte[] b) {
        return Seed.hash("SHA-256", b);
    }

    private List<String> names(String prefix) throws IOException {
        List<String> out = new ArrayList<>();
        target.list(prefix, e -> out.add(e.name()));
        return out;
    }

    @Test
    void smallBlobsGoIntoPacksBigOnesAloneAndEverythingRestores() throws IOException {
        seed();
        TreeMap<String, String> before = StoreFixture.snapshot(store);
        assertEquals(0, backup());
        RunReport report = lastReport();
        assertEquals(201, report.copiedBlobs());

        PackListing listing = PackListing.of(target);
        assertFalse(listing.indexSizes().isEmpty());
        assertEquals(listing.packSizes().keySet(), listing.indexSizes().keySet(), "every pack has its index");
        String big = sha(Seed.bytes(3 << 19, 7));
        assertEquals(List.of(ArchiveLayout.blob(big)), names(ArchiveLayout.BLOBS), "only the big blob is stored alone");

        BlobLocations where = BlobLocations.load(target);
        assertTrue(where.problems().isEmpty(), where.problems().toString());
        assertEquals(201, where.count());
        assertFalse(where.find(big).packed());
        for (BackupRow row : StoreFixture.rows(target, report.backupId())) {
            BlobLocations.Location at = where.find(row.info().sha256());
            assertNotNull(at, row.info().key());
            assertEquals(row.info().size(), at.length());
            if (row.info().size() < PackWriter.LOOSE_FROM_BYTES) {
                assertTrue(at.packed());
                try (InputStream in = target.open(at.file(row.info().sha256()), at.offset(), at.length())) {
                    assertEquals(row.info().sha256(), sha(in.readAllBytes()), "the index's range holds the blob");
                }
            }
        }
        assertEquals(before, restore("restored"));
        assertEquals(0, cli("verify", "--target", "dir:" + target.root(), "--restore-drill"));

        // The set of archived hashes comes from the indexes: a second run copies nothing.
        assertEquals(0, backup());
        assertEquals(0, lastReport().copiedBlobs());
        assertEquals(listing, PackListing.of(target), "no pack written by a run that copied nothing");
    }

    @Test
    void aPackNeverSealedIsNeverPartOfTheArchive() throws IOException {
        BlobLocations locations = new BlobLocations();
        try (PackWriter writer = new PackWriter(target, locations, PackWriter.PACK_BYTES)) {
            for (int i = 0; i < 5; i++) {
                byte[] b = Seed.bytes(1000, i);
                writer.append(sha(b), b, b.length);
            }
            // closed without a flush: as a job killed before its checkpoint
        }
        assertEquals(0, locations.count());
        assertTrue(names(ArchiveLayout.PACKS).isEmpty(), "nothing listed: " + names(ArchiveLayout.PACKS));
        assertTrue(Files.list(target.root().resolve("packs")).findAny().isEmpty(), "and no temporary file left");
        assertEquals(0, BlobLocations.load(target).count());
    }

    @Test
    void aPackWithoutItsIndexIsIgnoredCopiedAgainAndPruned() throws IOException {
        seed();
        // A run that died between committing a pack and its index: a complete pack, no index.
        String orphan = PackFormat.newPackId();
        byte[] content = Seed.bytes(50, 0);
        try (Target.Staged pack = target.stage(ArchiveLayout.pack(orphan))) {
            byte[] header = PackFormat.header(orphan);
            pack.write(header, 0, header.length);
            byte[] entry = new byte[PackFormat.ENTRY_HEADER_BYTES];
            PackFormat.entryHeader(entry, sha(content), content.length);
            pack.write(entry, 0, entry.length);
            pack.write(content, 0, content.length);
            pack.write(PackFormat.end(1), 0, 9);
            pack.commit();
        }
        assertEquals(0, BlobLocations.load(target).count());
        assertEquals(0, backup());
        assertEquals(201, lastReport().copiedBlobs(), "the orphan pack's blob counts as absent");
        assertEquals(0, cli("verify", "--target", "dir:" + target.root()));
        assertEquals(0, cli("prune", "--target", "dir:" + target.root(), "--keep-last", "1"));
        assertFalse(PackListing.of(target).packSizes().containsKey(orphan), "prune removed the orphan pack");
        assertEquals(0, cli("verify", "--target", "dir:" + target.root(), "--restore-drill"));
    }

    @Test
    void aFailedRunLeavesOnlySealedIndexedPacksAndResumes() throws IOException {
        seed();
        TreeMap<String, String> before = StoreFixture.snapshot(store);
        failAtRead.set(150);
        assertEquals(ExitCode.FAILED, backup());
        assertTrue(Catalog.backups(target).isEmpty(), "no manifest: the backup is not listed complete");
        assertEquals(1, Catalog.runs(target).size());
        PackListing listing = PackListing.of(target);
        // A seal interrupted between its pack and its index leaves a pack no index names: not part
        // of the archive (aPackWithoutItsIndexIsIgnoredCopiedAgainAndPruned). An index without its pack would be a loss.
        assertTrue(listing.packSizes().keySet().containsAll(listing.indexSizes().keySet()), "every index has its pack");
        try (var files = Files.walk(target.root().resolve("packs"))) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().contains(".tmp-")), "unsealed packs were removed");
        }
        assertEquals(0, cli("verify", "--target", "dir:" + target.root()), "what is in the archive is whole");

        failAtRead.set(0);
        assertEquals(0, backup());
        assertTrue(lastReport().resumed());
        assertEquals(before, restore("restored"));
    }

    @Test
    void pruneKeepsAPartlyReferencedPackWholeAndRemovesAnUnreferencedOne() throws IOException {
        seed();
        checkpointRows = 1000; // the two buckets' blobs share packs
        assertEquals(0, backup());
        checkpointRows = 40;
        PackListing first = PackListing.of(target);
        Map<String, List<String>> blobsOf = new HashMap<>();
        for (String id : first.indexSizes().keySet()) {
            blobsOf.put(id, PackListing.readIndex(target, id).entries().stream().map(PackFormat.IndexEntry::sha256).toList());
        }

        // Delete half the docs objects, add one: the first packs are now partly referenced, whether
        // the two buckets' blobs went into shared packs or each into its own (the splits' timing).
        for (int i = 1; i < 200; i += 4) {
            store.deleteObject("docs", "k" + i);
        }
        byte[] added = Seed.bytes(3000, 1234);
        Seed.put(store, "docs", "added", added, Seed.attributes(1));
        TreeMap<String, String> second = StoreFixture.snapshot(store);
        java.util.Set<String> live = new java.util.HashSet<>();
        second.values().forEach(v -> live.add(v.substring(0, 64)));
        assertEquals(0, backup("--keep-last", "1"));
        PackListing afterSecond = PackListing.of(target);
        int partlyReferenced = 0;
        for (var pack : blobsOf.entrySet()) {
            long referenced = pack.getValue().stream().filter(live::contains).count();
            assertEquals(referenced > 0, afterSecond.packSizes().containsKey(pack.getKey()),
                    "a pack is kept exactly when some of its blobs are referenced: " + referenced);
            assertEquals(referenced > 0, afterSecond.indexSizes().containsKey(pack.getKey()));
            if (referenced > 0 && referenced < pack.getValue().size()) {
                partlyReferenced++;
            }
        }
        assertTrue(partlyReferenced > 0, "a partly referenced pack was kept whole");
        assertEquals(second, restore("restore-second"));
        assertEquals(0, cli("verify", "--target", "dir:" + target.root()));

        // Delete everything but the added object: the first run's packs hold nothing referenced.
        for (int i = 0; i < 200; i += 2) {
            store.deleteObject("photos", "k" + i);
        }
        for (int i = 3; i < 200; i += 4) {
            store.deleteObject("docs", "k" + i);
        }
        store.deleteObject("photos", "big");
        TreeMap<String, String> third = StoreFixture.snapshot(store);
        assertEquals(0, backup("--keep-last", "1"));
        PackListing afterThird = PackListing.of(target);
        for (String id : first.packSizes().keySet()) {
            assertFalse(afterThird.packSizes().containsKey(id), "unreferenced pack " + id + " removed");
            assertFalse(afterThird.indexSizes().containsKey(id));
        }
        assertTrue(names(ArchiveLayout.BLOBS).isEmpty(), "the big blob went with its last backup");
        BlobLocations left = BlobLocations.load(target);
        assertEquals(1, left.count());
        assertNotNull(left.find(sha(added)));
        assertEquals(third, restore("restore-third"));
        assertEquals(0, cli("verify", "--target", "dir:" + target.root()));
    }

    @Test
    void verifyFindsAFlippedByteInsideAPackAndRewritesThePackWithoutIt() throws IOException {
        seed();
        assertEquals(0, backup());
        String id = lastReport().backupId();
        BackupRow victim = StoreFixture.rows(target, id).get(10);
        String victimSha = victim.info().sha256();
        BlobLocations.Location at = BlobLocations.load(target).find(victimSha);
        assertTrue(at.packed());
        Path pack = target.root().resolve(at.file(victimSha));
        byte[] bytes = Files.readAllBytes(pack);
        bytes[(int) (at.offset() + at.length() / 2)] ^= 0x01;
        Files.write(pack, bytes);

        PrintStream err = System.err;
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
        try {
            assertEquals(ExitCode.FAILED, cli("verify", "--target", "dir:" + target.root()));
        } finally {
            System.setErr(err);
        }
        String text = log.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains(victimSha) && text.contains("at offset " + at.offset()), text);
        assertEquals(ExitCode.FAILED, cli("restore", "--target", "dir:" + target.root(),
                "--into", "embedded:" + dir.resolve("from-corrupt")), "a restore reading the corrupt blob fails");

        assertEquals(ExitCode.FAILED, cli("verify", "--target", "dir:" + target.root(), "--delete-corrupt"));
        BlobLocations after = BlobLocations.load(target);
        assertNull(after.find(victimSha), "the corrupt blob is out of the archive");
        assertEquals(200, after.count(), "every other blob of the pack was kept");
        assertFalse(Files.exists(pack), "the damaged pack is gone");
        assertEquals(ExitCode.FAILED, cli("verify", "--target", "dir:" + target.root()), "its row no longer resolves");

        assertEquals(0, backup());
        assertEquals(1, lastReport().copiedBlobs(), "the next backup copies the removed blob again");
        assertEquals(0, cli("verify", "--target", "dir:" + target.root(), "--restore-drill"));
    }

    @Test
    void dumpPrintsAPackAndItsIndex() throws IOException {
        seed();
        assertEquals(0, backup());
        String packId = PackListing.of(target).indexSizes().keySet().iterator().next();
        PackFormat.Index index = PackListing.readIndex(target, packId);
        Path pack = target.root().resolve(ArchiveLayout.pack(packId));

        String packText = dump(pack, 0);
        assertTrue(packText.contains("pack id:    " + packId), packText);
        for (PackFormat.IndexEntry e : index.entries()) {
            assertTrue(packText.contains(e.sha256() + " offset=" + e.offset() + " length=" + e.length() + " sha256 ok"),
                    packText);
        }
        assertTrue(packText.contains("end: " + index.entries().size() + " blobs, " + index.packSize() + " bytes"), packText);

        String indexText = dump(target.root().resolve(ArchiveLayout.packIndex(packId)), 0);
        assertTrue(indexText.contains("blobs: " + index.entries().size()) && indexText.contains("checksum=ok"), indexText);

        byte[] bytes = Files.readAllBytes(pack);
        PackFormat.IndexEntry first = index.entries().get(0);
        bytes[(int) first.offset()] ^= 0x40;
        Files.write(pack, bytes);
        assertTrue(dump(pack, ExitCode.FAILED).contains(first.sha256() + " offset=" + first.offset() + " length="
                + first.length() + " CORRUPT"));
    }

    private String dump(Path file, int expectedExit) {
        PrintStream out = System.out;
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        System.setOut(new PrintStream(text, true, StandardCharsets.UTF_8));
        try {
            assertEquals(expectedExit, cli("dump", file.toString()));
        } finally {
            System.setOut(out);
        }
        return text.toString(StandardCharsets.UTF_8);
    }

    /**
     * An archive as jobs before packs wrote it: every blob in its own file, manifests of version 1
     * (the same bytes but the version, and so the checksum).
     */
    private void rewriteAsVersion1() throws IOException {
        PackListing listing = PackListing.of(target);
        for (String id : listing.indexSizes().keySet()) {
            for (PackFormat.IndexEntry e : PackListing.readIndex(target, id).entries()) {
                try (InputStream in = target.open(ArchiveLayout.pack(id), e.offset(), e.length())) {
                    target.put(ArchiveLayout.blob(e.sha256()), in.readAllBytes());
                }
            }
            target.delete(ArchiveLayout.packIndex(id));
            target.delete(ArchiveLayout.pack(id));
        }
        for (Catalog.Backup b : Catalog.backups(target)) {
            String name = ArchiveLayout.manifest(b.id());
            target.put(name, OlderManifests.rewrite(target.read(name), 1));
        }
        target.sync();
    }

    @Test
    void anArchiveWrittenBeforePacksRestoresAndItsBlobsAreNeverCopiedAgain() throws IOException {
        seed();
        TreeMap<String, String> before = StoreFixture.snapshot(store);
        assertEquals(0, backup());
        String old = lastReport().backupId();
        rewriteAsVersion1();
        assertTrue(names(ArchiveLayout.PACKS).isEmpty());
        assertEquals(201, names(ArchiveLayout.BLOBS).size());
        String dumped = dump(target.root().resolve(ArchiveLayout.manifest(old)), 0);
        assertTrue(dumped.contains("checksum=ok"), dumped);

        assertEquals(before, restore("from-version-1"));
        assertEquals(0, cli("verify", "--target", "dir:" + target.root()));

        byte[] added = Seed.bytes(2000, 4242);
        Seed.put(store, "docs", "added", added, Seed.attributes(2));
        TreeMap<String, String> after = StoreFixture.snapshot(store);
        assertEquals(0, backup());
        assertEquals(1, lastReport().copiedBlobs(), "the version-1 archive's blobs are found, not copied again");
        String newer = lastReport().backupId();
        assertEquals(ManifestWriter.VERSION_WITH_PART_SIZES, target.read(ArchiveLayout.manifest(newer))[9],
                "new manifests without bucket documents are of version 4");
        assertTrue(BlobLocations.load(target).find(sha(added)).packed());
        assertEquals(after, restore("mixed"));
        assertEquals(0, cli("verify", "--target", "dir:" + target.root(), "--restore-drill", "--backup", old));
    }

    @Test
    void locationsFindEveryBlobAmongMany() {
        BlobLocations where = new BlobLocations();
        Random r = new Random(5);
        Map<String, Long> expected = new HashMap<>();
        List<PackFormat.IndexEntry> entries = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            byte[] h = new byte[32];
            r.nextBytes(h);
            String sha = dev.cairn.store.Hex.encode(h);
            if (i % 3 == 0) {
                where.addLoose(sha, i);
            } else {
                entries.add(new PackFormat.IndexEntry(sha, PackFormat.HEADER_BYTES + PackFormat.ENTRY_HEADER_BYTES + i, i));
            }
            expected.put(sha, (long) i);
        }
        where.addPack(new PackFormat.Index(PackFormat.newPackId(), 1 << 30, entries));
        assertEquals(20_000, where.count());
        expected.forEach((sha, size) -> assertEquals(size, where.size(sha)));
        assertEquals(-1, where.size("00".repeat(32)));
        assertEquals(-1, where.size("ff".repeat(32)));
    }

    /** The test store as a source whose content read number {@link #failAtRead} fails, as a source dying mid-run. */
    private final class FailingSource extends ForwardingBackupSource {
        FailingSource(BackupSource inner) {
            super(inner);
        }

        @Override
        public InputStream openContent(String sha256) throws IOException {
            int fail = failAtRead.get();
            if (fail > 0 && reads.incrementAndGet() >= fail) {
                throw new IOException("the source went away (test)");
            }
            return inner.openContent(sha256);
        }
    }
}
