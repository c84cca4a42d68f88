package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.BlobLocations;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.cli.ExitCode;
import dev.cairn.backup.cli.SourceFactory;
import dev.cairn.backup.source.embedded.CheckpointReader;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.Versioning;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One damaged blob in the archive: a restore stops on it, and with {@code --skip-damaged} restores
 * every other object, lists the one left out and why, and exits with {@link ExitCode#DAMAGED};
 * the same after {@code verify --delete-corrupt} removed the blob.
 */
class SkipDamagedRestoreTest {
    @TempDir
    Path dir;

    private String err;

    private int cli(SmallArchive small, String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            return small.cli(args);
        } finally {
            System.setErr(saved);
            err = bytes.toString(StandardCharsets.UTF_8);
        }
    }

    private static TreeMap<String, String> restored(Path data) throws Exception {
        try (EmbeddedStoreDir store = EmbeddedStoreDir.open(data)) {
            return StoreFixture.snapshot(store.store());
        }
    }

    private static void flipAByteOf(DirectoryTarget archive, BackupRow row) throws Exception {
        BlobLocations.Location at = BlobLocations.load(archive).find(row.info().sha256());
        Path file = archive.root().resolve(at.file(row.info().sha256()));
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) (at.offset() + at.length() / 2)] ^= 0x01;
        Files.write(file, bytes);
    }

    @Test
    void aDamagedVersionIsLeftOutAndTheKeysOtherVersionsRestoredInTheirPlaces() throws Exception {
        Path source = dir.resolve("versioned-source");
        List<String> before;
        String victimVersion;
        try (EmbeddedStoreDir store = EmbeddedStoreDir.open(source)) {
            ObjectStore s = store.store();
            s.createBucket("v", BucketAcl.PRIVATE);
            s.setBucketVersioning("v", Versioning.ENABLED);
            Seed.put(s, "v", "k", Seed.bytes(300, 1), Seed.attributes(1));
            victimVersion = Seed.put(s, "v", "k", Seed.bytes(400, 2), Seed.attributes(2)).versionId();
            Seed.put(s, "v", "k", Seed.bytes(500, 3), Seed.attributes(3));
            Seed.put(s, "v", "other", Seed.bytes(600, 4), Seed.attributes(4));
            before = VersionedBackupTest.versions(s);
        }
        SourceFactory checkpoint = options -> CheckpointReader.open(source.resolve(DataDirLayout.ENGINE_DIR), true, 0,
                false, "test checkpoint");
        String target = "dir:" + dir.resolve("versioned-archive");
        assertEquals(0, Main.commandLine(checkpoint).execute("run", "--source", "embedded", "--target", target));
        DirectoryTarget archive = new DirectoryTarget(dir.resolve("versioned-archive"));
        BackupRow victim = StoreFixture.rows(archive, Catalog.find(archive, null).id()).stream()
                .filter(r -> victimVersion.equals(r.version().version().versionId())).findFirst().orElseThrow();
        flipAByteOf(archive, victim);

        Path data = dir.resolve("versioned-restored");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream saved = System.err;
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Main.commandLine(checkpoint).execute("restore", "--target", target, "--into", "embedded:" + data,
                    "--skip-damaged");
        } finally {
            System.setErr(saved);
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(ExitCode.DAMAGED, exit, out);
        assertTrue(out.contains("  v/k version " + victimVersion + ": "), out);
        List<String> expected = before.stream().filter(l -> !l.startsWith("v/k " + victimVersion + " ")).toList();
        assertEquals(before.size() - 1, expected.size());
        try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(data)) {
            assertEquals(expected, VersionedBackupTest.versions(restored.store()));
        }
    }

    @Test
    void everyOtherObjectIsRestoredAndTheDamagedOneListed() throws Exception {
        try (SmallArchive small = SmallArchive.backedUp(dir)) {
            DirectoryTarget archive = new DirectoryTarget(small.archive());
            BackupRow victim = StoreFixture.rows(archive, Catalog.find(archive, null).id()).get(4);
            String name = victim.bucket() + "/" + victim.key();
            flipAByteOf(archive, victim);
            TreeMap<String, String> others = new TreeMap<>(small.snapshot);
            others.remove(name);

            assertEquals(ExitCode.FAILED, cli(small, "restore", "--target", small.target(), "--into",
                    "embedded:" + dir.resolve("stopped")));
            assertTrue(err.contains("--skip-damaged"), err);

            assertEquals(ExitCode.DAMAGED, cli(small, "restore", "--target", small.target(), "--into",
                    "embedded:" + dir.resolve("skipping"), "--skip-damaged"));
            assertTrue(err.contains("skipped 1 object(s)") && err.contains("  " + name + ": ")
                    && err.contains("hashes to"), err);
            assertEquals(others, restored(dir.resolve("skipping")));
            assertEquals(ExitCode.DAMAGED, cli(small, "restore", "--target", small.target(), "--into",
                    "embedded:" + dir.resolve("skipping"), "--skip-damaged"), "a finished restore still reports what it left out");
            assertTrue(err.contains("  " + name + ": "), err);

            assertEquals(ExitCode.FAILED, cli(small, "verify", "--target", small.target(), "--delete-corrupt"));
            assertEquals(ExitCode.DAMAGED, cli(small, "restore", "--target", small.target(), "--into",
                    "embedded:" + dir.resolve("after-verify"), "--skip-damaged"));
            assertTrue(err.contains("  " + name + ": ") && err.contains("is missing"), err);
            assertEquals(others, restored(dir.resolve("after-verify")));
        }
    }
}
