package dev.cairn.backup;

import dev.cairn.backup.cli.SourceFactory;
import dev.cairn.backup.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Backups of an embedded store into a directory, run through the command line as a user runs them. */
class BackupRestoreTest {
    @TempDir
    Path dir;
    private EmbeddedStoreDir source;
    private ObjectStore store;
    private DirectoryTarget target;

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
        SourceFactory factory = options -> new ObjectStoreSource(store, "test store", 50, null);
        return Main.commandLine(factory).execute(args);
    }

    private int backup(String... extra) {
        List<String> args = new ArrayList<>(List.of("run", "--source", "embedded", "--target", "dir:" + target.root(),
                "--checkpoint-rows", "40", "--report", dir.resolve("report.json").toString(),
                "--metrics-file", dir.resolve("metrics/backup.prom").toString()));
        args.addAll(List.of(extra));
        return cli(args.toArray(String[]::new));
    }

    private RunReport lastReport() throws IOException {
        return Json.read(Files.readAllBytes(dir.resolve("report.json")), RunReport.class, "report");
    }

    private TreeMap<String, String> restore(String backupId, String into, String... extra) throws IOException {
        List<String> args = new ArrayList<>(List.of("restore", "--target", "dir:" + target.root(),
                "--into", "embedded:" + dir.resolve(into)));
        if (backupId != null) {
            args.addAll(List.of("--backup", backupId));
        }
        args.addAll(List.of(extra));
        assertEquals(0, cli(args.toArray(String[]::new)));
        try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(dir.resolve(into))) {
            return StoreFixture.snapshot(restored.store());
        }
    }

    private static String bucket(int i) {
        return i % 3 == 0 ? "docs" : "photos";
    }

    private static String key(int i) {
        return (i % 4 == 0 ? "a/" : "b/") + "k" + i + (i % 11 == 0 ? "-é✓" : "");
    }

    private long seed() throws IOException {
        store.createBucket("photos", BucketAcl.PUBLIC_READ);
        store.createBucket("docs", BucketAcl.PRIVATE);
        long bytes = 0;
        for (int i = 0; i < 240; i++) {
            String bucket = bucket(i);
            byte[] b = Seed.bytes(100 + (i * 997) % 30_000, i);
            Seed.put(store, bucket, key(i), b, Seed.attributes(i));
            bytes += b.length;
        }
        Seed.put(store, "photos", "dup-of-k1", Seed.bytes(100 + 997, 1), Seed.attributes(1));
        Seed.put(store, "docs", "empty", new byte[0], dev.cairn.store.ObjectAttributes.EMPTY);
        return bytes;
    }

    @Test
    void fullThenIncrementalThenRestoreEitherBackup() throws IOException {
        long seeded = seed();
        TreeMap<String, String> before = StoreFixture.snapshot(store);

        assertEquals(0, backup());
        RunReport first = lastReport();
        assertEquals("complete", first.status());
        assertEquals(242, first.objects());
        assertNull(first.parentId());
        assertEquals(seeded, first.copiedBytes(), "the first backup copies every distinct content once");
        assertTrue(Files.readString(dir.resolve("metrics/backup.prom")).contains("cairn_backup_last_objects 242"));
        List<BackupRow> rows = StoreFixture.rows(target, first.backupId());
        assertEquals(242, rows.size());
        assertEquals(2, Catalog.find(target, first.backupId()).header().buckets().size());
        assertTrue(Catalog.runs(target).isEmpty(), "the run state is gone once the manifest is written");

        assertEquals(before, restore(null, "restore-1"));

        // Change 10 objects, delete 5, add 5: the next backup copies only the 15 new contents.
        long newBytes = 0;
        for (int i = 1; i <= 10; i++) {
            byte[] b = Seed.bytes(5000 + i, 1000 + i);
            Seed.put(store, bucket(i), key(i), b, Seed.attributes(i + 1));
            newBytes += b.length;
        }
        for (int i = 20; i < 25; i++) {
            assertTrue(store.deleteObject(bucket(i), key(i)) != null);
        }
        for (int i = 0; i < 5; i++) {
            byte[] b = Seed.bytes(7000 + i, 2000 + i);
            Seed.put(store, "docs", "new/" + i, b, Seed.attributes(i));
            newBytes += b.length;
        }
        TreeMap<String, String> after = StoreFixture.snapshot(store);
        assertEquals(0, backup());
        RunReport second = lastReport();
        assertEquals(first.backupId(), second.parentId());
        assertEquals(242, second.objects());
        assertEquals(15, second.copiedBlobs());
        assertEquals(newBytes, second.copiedBytes(), "an incremental copies only new content");

        assertEquals(before, restore(first.backupId(), "restore-first"), "the older backup of the chain still restores");
        assertEquals(after, restore(second.backupId(), "restore-second"));

        // Filters: one bucket, one prefix.
        TreeMap<String, String> filtered = restore(null, "restore-filtered", "--bucket", "docs", "--prefix", "a/");
        TreeMap<String, String> expected = new TreeMap<>();
        after.forEach((k, v) -> {
            if (k.startsWith("docs/a/")) {
                expected.put(k, v);
            }
        });
        assertEquals(expected, filtered);
        assertTrue(!expected.isEmpty());
    }

    @Test
    void restoreRefusesANonEmptyBucketUnlessAllowed() throws IOException {
        seed();
        assertEquals(0, backup());
        try (EmbeddedStoreDir other = EmbeddedStoreDir.open(dir.resolve("busy"))) {
            other.store().createBucket("docs", BucketAcl.PRIVATE);
            Seed.put(other.store(), "docs", "already-here", Seed.bytes(10, 1), Seed.attributes(0));
        }
        int exit = cli("restore", "--target", "dir:" + target.root(), "--into", "embedded:" + dir.resolve("busy"));
        assertNotEquals(0, exit);
        try (EmbeddedStoreDir other = EmbeddedStoreDir.open(dir.resolve("busy"))) {
            assertEquals(1, StoreFixture.snapshot(other.store()).size(), "a refused restore writes nothing");
            assertNull(other.store().bucket("photos"));
        }
        TreeMap<String, String> merged = restore(null, "busy", "--allow-non-empty");
        assertEquals(StoreFixture.snapshot(store).size() + 1, merged.size());
    }

    @Test
    void verifyFindsAFlippedByteAndTheNextBackupRepairsIt() throws IOException {
        seed();
        assertEquals(0, backup());
        String id = lastReport().backupId();
        assertEquals(0, cli("verify", "--target", "dir:" + target.root(), "--restore-drill"));

        BackupRow victim = StoreFixture.rows(target, id).get(5);
        BlobLocations.Location at = BlobLocations.load(target).find(victim.info().sha256());
        Path file = target.root().resolve(at.file(victim.info().sha256()));
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) (at.offset() + at.length() / 2)] ^= 0x01;
        Files.write(file, bytes);

        assertEquals(ExitCode.FAILED, cli("verify", "--target", "dir:" + target.root()));
        assertEquals(ExitCode.FAILED, cli("verify", "--target", "dir:" + target.root(), "--restore-drill"),
                "a drill over a corrupt blob fails too");
        assertEquals(ExitCode.FAILED, cli("restore", "--target", "dir:" + target.root(),
                "--into", "embedded:" + dir.resolve("from-corrupt")), "a restore reading the corrupt blob fails");
        assertEquals(ExitCode.FAILED, cli("verify", "--target", "dir:" + target.root(), "--delete-corrupt"));
        assertNull(BlobLocations.load(target).find(victim.info().sha256()), "the corrupt blob is out of the archive");
        assertEquals(ExitCode.FAILED, cli("verify", "--target", "dir:" + target.root()), "the manifest entry no longer resolves");

        assertEquals(0, backup());
        assertEquals(1, lastReport().copiedBlobs(), "the next backup copies the removed blob again");
        assertEquals(0, cli("verify", "--target", "dir:" + target.root(), "--restore-drill"));
    }

    @Test
    void pruneKeepsWhatRetentionChoosesAndOnlyTheirBlobs() throws IOException {
        seed();
        assertEquals(0, backup());
        String first = lastReport().backupId();
        Seed.put(store, "docs", "only-in-second", Seed.bytes(4321, 99), Seed.attributes(3));
        assertEquals(0, backup());
        store.deleteObject("docs", "only-in-second");
        Seed.put(store, "docs", "only-in-third", Seed.bytes(1234, 98), Seed.attributes(4));
        assertEquals(0, backup("--keep-last", "1"));
        String third = lastReport().backupId();

        List<Catalog.Backup> left = Catalog.backups(target);
        assertEquals(1, left.size());
        assertEquals(third, left.get(0).id());
        BlobLocations archived = BlobLocations.load(target);
        assertTrue(archived.size(Seed.hash("SHA-256", Seed.bytes(4321, 99))) < 0, "a blob only pruned backups referenced is gone");
        assertTrue(archived.size(Seed.hash("SHA-256", Seed.bytes(1234, 98))) > 0);
        assertNotEquals(first, third);
        assertEquals(0, cli("verify", "--target", "dir:" + target.root(), "--restore-drill"));
        assertEquals(0, cli("list", "--target", "dir:" + target.root()));
    }

    @Test
    void aSecondRunIsRefusedWhileTheLockIsLive() throws IOException {
        seed();
        try (var lease = dev.cairn.backup.run.Lease.acquire(target, ArchiveLayout.WRITER_LOCK, "test",
                java.time.Duration.ofMinutes(1))) {
            assertEquals(ExitCode.LOCKED, backup());
            assertEquals(ExitCode.LOCKED, cli("prune", "--target", "dir:" + target.root(), "--keep-last", "1"));
        }
        assertTrue(Catalog.backups(target).isEmpty());
        assertEquals(0, backup());
        Set<String> names = new HashSet<>();
        target.list("", e -> names.add(e.name()));
        assertTrue(names.stream().noneMatch(n -> n.startsWith(ArchiveLayout.LOCKS)), "the lock is released: " + names);
    }
}
