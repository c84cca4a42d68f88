package dev.cairn.backup;

import dev.cairn.store.embedded.DataDirLayout;
import dev.cairn.backup.cli.SourceFactory;
import dev.cairn.backup.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.embedded.CheckpointReader;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.Versioning;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Backups of versioned buckets, read from a closed store directory through the embedded source's
 * read-only path: every version, delete marker and {@code null} version is in the manifest, and a
 * restore gives back the same ListObjectVersions, bytes, metadata and times; an incremental after
 * a new version copies only its content; prune keeps the blobs of old versions.
 */
class VersionedBackupTest {
    @TempDir
    Path dir;

    private Path sourceDir() {
        return dir.resolve("source");
    }

    private int cli(String... args) {
        SourceFactory factory = options -> CheckpointReader.open(sourceDir().resolve(DataDirLayout.ENGINE_DIR), true, 0,
                false, "test checkpoint");
        return Main.commandLine(factory).execute(args);
    }

    private String target() {
        return "dir:" + dir.resolve("archive");
    }

    private RunReport backup() throws IOException {
        assertEquals(0, cli("run", "--source", "embedded", "--target", target(), "--checkpoint-rows", "3",
                "--report", dir.resolve("report.json").toString()));
        return Json.read(Files.readAllBytes(dir.resolve("report.json")), RunReport.class, "report");
    }

    private List<String> restore(String backupId, String into) throws IOException {
        assertEquals(0, cli("restore", "--target", target(), "--backup", backupId, "--into",
                "embedded:" + dir.resolve(into)));
        try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(dir.resolve(into))) {
            return versions(restored.store());
        }
    }

    static ObjectAttributes attrs(int i) {
        return new ObjectAttributes("image/jpeg", "max-age=" + i, null, null, "en", null, Map.of("n", "" + i))
                .withAcl(i % 2 == 0 ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE);
    }

    static void seed(ObjectStore s) throws IOException {
        s.createBucket("docs", BucketAcl.PRIVATE);
        s.setBucketVersioning("docs", Versioning.ENABLED);
        for (int i = 1; i <= 3; i++) {
            Seed.put(s, "docs", "a", Seed.bytes(1000 + i, i), attrs(i));
        }
        s.deleteObjectVersion("docs", "a", null); // a delete marker is a's current version
        Seed.put(s, "docs", "big", Seed.bytes(1_500_000, 40), attrs(4));
        Seed.put(s, "docs", "big", Seed.bytes(700, 41), attrs(5));
        Seed.put(s, "docs", "b", Seed.bytes(300, 50), attrs(6));
        s.deleteObjectVersion("docs", "b", null);
        Seed.put(s, "docs", "b", Seed.bytes(301, 51), attrs(7));
        Seed.put(s, "docs", "same", Seed.bytes(1001, 1), attrs(8)); // content shared with a's first version

        s.createBucket("susp", BucketAcl.PUBLIC_READ);
        Seed.put(s, "susp", "x", Seed.bytes(200, 60), attrs(9)); // before versioning: becomes the null version
        s.setBucketVersioning("susp", Versioning.ENABLED);
        Seed.put(s, "susp", "x", Seed.bytes(201, 61), attrs(10));
        s.setBucketVersioning("susp", Versioning.SUSPENDED);
        Seed.put(s, "susp", "x", Seed.bytes(202, 62), attrs(11)); // the null version, replaced
        Seed.put(s, "susp", "y", Seed.bytes(203, 63), attrs(12));
        s.deleteObjectVersion("susp", "y", null); // a null delete marker

        s.createBucket("plain", BucketAcl.PRIVATE);
        Seed.put(s, "plain", "p", Seed.bytes(400, 70), attrs(13));
    }

    /** Every version of every bucket as ListObjectVersions gives it, paged, with its bytes' SHA-256. */
    static List<String> versions(ObjectStore s) throws IOException {
        List<String> out = new ArrayList<>();
        for (BucketInfo b : s.listBuckets()) {
            out.add("bucket " + b.name() + " " + b.acl() + " " + b.versioning()
                    + (b.documents().isEmpty() ? "" : " documents=" + b.documents()));
            String keyMarker = null;
            String versionMarker = null;
            VersionPage page;
            do {
                page = s.listObjectVersions(b.name(), new VersionQuery("", null, keyMarker, versionMarker, 2));
                for (ObjectVersion v : page.versions()) {
                    StringBuilder line = new StringBuilder(b.name() + "/" + v.key() + " " + v.versionId()
                            + " latest=" + v.latest() + " marker=" + v.deleteMarker() + " t=" + v.lastModified());
                    if (!v.deleteMarker()) {
                        try (ObjectRead r = s.getObjectVersion(b.name(), v.key(), v.versionId());
                             InputStream in = r.open(0, r.size())) {
                            line.append(" sha=").append(Seed.hash("SHA-256", in.readAllBytes()))
                                    .append(" ").append(r.info().etag()).append(" ").append(r.info().attributes())
                                    .append(" ").append(r.info().checksums()).append(" t=").append(r.info().lastModified());
                        }
                    }
                    out.add(line.toString());
                }
                keyMarker = page.nextKeyMarker();
                versionMarker = page.nextVersionIdMarker();
            } while (page.truncated());
        }
        return out;
    }

    @Test
    void everyVersionIsBackedUpAndRestoredInItsPlace() throws IOException {
        List<String> before;
        try (EmbeddedStoreDir source = EmbeddedStoreDir.open(sourceDir())) {
            seed(source.store());
            before = versions(source.store());
        }
        assertTrue(before.stream().anyMatch(l -> l.startsWith("susp/y null latest=true marker=true")), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("susp/x null latest=true")), before.toString());

        RunReport first = backup();
        List<BackupRow> rows = StoreFixture.rows(new DirectoryTarget(dir.resolve("archive")), first.backupId());
        assertEquals(before.stream().filter(l -> !l.startsWith("bucket ")).count(), rows.size(), "one row per version");
        assertEquals(4, new DirectoryTarget(dir.resolve("archive")).read(ArchiveLayout.manifest(first.backupId()))[9],
                "a backup holding versions is manifest version 4");

        assertEquals(before, restore(first.backupId(), "restored-1"));
        assertEquals(0, cli("verify", "--target", target(), "--restore-drill"));

        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        CommandLine dumpCli = Main.commandLine(o -> null);
        PrintStream stdout = System.out;
        try {
            System.setOut(new PrintStream(dump, true, StandardCharsets.UTF_8));
            assertEquals(0, dumpCli.execute("dump", dir.resolve("archive").resolve(ArchiveLayout.manifest(first.backupId())).toString()));
        } finally {
            System.setOut(stdout);
        }
        String printed = dump.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("susp/y version=null") && printed.contains("deleteMarker")
                && printed.contains("versioning=Suspended"), printed);

        // A new version of a, and b's newest version deleted for good: the next backup copies one blob.
        try (EmbeddedStoreDir source = EmbeddedStoreDir.open(sourceDir())) {
            Seed.put(source.store(), "docs", "a", Seed.bytes(5000, 80), attrs(14));
            String newestOfB = source.store().listObjectVersions("docs", new VersionQuery("b", null, null, null, 1))
                    .versions().get(0).versionId();
            source.store().deleteObjectVersion("docs", "b", newestOfB);
        }
        List<String> after;
        try (EmbeddedStoreDir source = EmbeddedStoreDir.open(sourceDir())) {
            after = versions(source.store());
        }
        assertNotEquals(before, after);
        RunReport second = backup();
        assertEquals(first.backupId(), second.parentId());
        assertEquals(1, second.copiedBlobs(), "only the new version's content is copied");
        assertEquals(5000, second.copiedBytes());

        // Prune drops the first backup; every blob a version of the second references stays.
        assertEquals(0, cli("prune", "--target", target(), "--keep-last", "1"));
        assertEquals(0, cli("verify", "--target", target()));
        assertEquals(after, restore(second.backupId(), "restored-2"));
        // Writing every row again (a restore resumed before its last batch was recorded) changes nothing.
        try (var states = Files.list(dir.resolve("restored-2").resolve("restores"))) {
            for (Path state : states.toList()) {
                Files.delete(state);
            }
        }
        assertEquals(0, cli("restore", "--target", target(), "--backup", second.backupId(), "--into",
                "embedded:" + dir.resolve("restored-2"), "--allow-non-empty"));
        try (EmbeddedStoreDir again = EmbeddedStoreDir.open(dir.resolve("restored-2"))) {
            assertEquals(after, versions(again.store()));
        }
    }

    @Test
    void aSourceThatCannotReadVersionsRefusesAVersionedBucket() throws IOException {
        try (EmbeddedStoreDir source = EmbeddedStoreDir.open(sourceDir())) {
            seed(source.store());
        }
        SourceFactory currentOnly = options -> StoreFixture.source(sourceDir());
        int exit = Main.commandLine(currentOnly).execute("run", "--source", "embedded", "--target", target());
        assertEquals(ExitCode.FAILED, exit, "refused before it starts, not a backup of current objects only");
        assertTrue(dev.cairn.backup.archive.Catalog.backups(new DirectoryTarget(dir.resolve("archive"))).isEmpty());
    }
}
