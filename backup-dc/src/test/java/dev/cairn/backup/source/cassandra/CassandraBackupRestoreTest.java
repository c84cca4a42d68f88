package dev.cairn.backup.source.cassandra;

import dev.cairn.backup.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.backup.Main;
import dev.cairn.backup.StoreFixture;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.SourceTestContent;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.PutRequest;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on the real test cluster, through the command line: objects written through the
 * store on datacenter {@code serving}; {@code backup run --source cassandra --datacenter backup}
 * into a directory; {@code backup restore --into cassandra} into a fresh keyspace and
 * {@code --into embedded:…}; every object of both restores equal to what was written, by
 * SHA-256, with its metadata and its bucket's ACL; a second restore into the now non-empty
 * keyspace under another archive is refused.
 */
@Tag("integration")
class CassandraBackupRestoreTest {
    private static final String KEYSPACE = "backupe2e";
    private static final String RESTORED = "backupe2e_restored";
    private static final int OBJECTS = 240;
    /** A multipart object's parts: of different sizes, a small last one. */
    private static final long[] MULTIPART_SIZES = {70_000, 30_000, 50_000, 7};

    @TempDir
    Path dir;

    private static int cli(String... args) {
        return Main.commandLine(BackupSources::open).execute(args);
    }

    @Test
    void backupFromTheBackupDatacenterThenRestoreIntoCassandraAndEmbedded() throws Exception {
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        settings.setWriteConsistency(CassandraSettings.WriteConsistency.EACH_QUORUM);
        Map<String, String> expected = new TreeMap<>();
        try (CqlSession serving = CassandraSessions.connect(settings)) {
            serving.execute("DROP KEYSPACE IF EXISTS " + KEYSPACE);
            serving.execute("DROP KEYSPACE IF EXISTS " + RESTORED);
            CassandraObjectStore.createSchema(serving, settings);
            Random random = new Random(5);
            try (CassandraObjectStore store = new CassandraObjectStore(serving, false, settings)) {
                store.createBucket("photos", BucketAcl.PRIVATE);
                store.createBucket("thumbs", BucketAcl.PUBLIC_READ);
                for (int i = 0; i < OBJECTS; i++) {
                    String bucket = i % 3 == 0 ? "thumbs" : "photos";
                    String key = "ads/" + (i % 7) + "/img-" + i + (i % 40 == 0 ? "-ünïcode" : "") + ".jpg";
                    byte[] b = new byte[i % 60 == 5 ? 1_300_000 : 100 + random.nextInt(30_000)];
                    random.nextBytes(b);
                    ObjectAttributes attrs = new ObjectAttributes("image/jpeg", "max-age=60", null, null, null, null,
                            Map.of("ad", Integer.toString(i)));
                    dev.cairn.store.ContentSource content = SourceTestContent.of(b);
                    store.putObject(PutRequest.of(bucket, key, content, content.md5()).withAttributes(attrs));
                    expected.put(bucket + "/" + key, SourceTestContent.sha256(b) + " image/jpeg max-age=60 ad=" + i);
                }
                ObjectAttributes attrs = new ObjectAttributes("image/jpeg", "max-age=60", null, null, null, null,
                        Map.of("ad", "multipart"));
                String upload = store.createUpload("photos", "multipart.jpg", attrs).uploadId();
                java.io.ByteArrayOutputStream whole = new java.io.ByteArrayOutputStream();
                List<dev.cairn.store.CompletedPart> parts = new java.util.ArrayList<>();
                for (int n = 1; n <= MULTIPART_SIZES.length; n++) {
                    byte[] b = new byte[(int) MULTIPART_SIZES[n - 1]];
                    random.nextBytes(b);
                    whole.writeBytes(b);
                    parts.add(new dev.cairn.store.CompletedPart(n,
                            store.putPart("photos", "multipart.jpg", upload, n, SourceTestContent.of(b)).etag()));
                }
                store.completeUpload(CompleteRequest.of("photos", "multipart.jpg", upload, parts, 0));
                expected.put("photos/multipart.jpg", SourceTestContent.sha256(whole.toByteArray())
                        + " image/jpeg max-age=60 ad=multipart");
                ObjectInfo head = store.headObject("photos", "multipart.jpg");
                assertArrayEquals(MULTIPART_SIZES, store.partSizes("photos", "multipart.jpg", head));
            }
        }

        Path archive = dir.resolve("archive");
        Path report = dir.resolve("report.json");
        assertEquals(0, cli("run", "--source", "cassandra", "--contact-points", LocalCassandraCluster.BACKUP_CONTACT_POINT,
                "--datacenter", "backup", "--keyspace", KEYSPACE, "--splits", "8", "--page-size", "50",
                "--target", "dir:" + archive, "--report", report.toString()));
        RunReport r = Json.read(Files.readAllBytes(report), RunReport.class, "report");
        assertEquals("complete", r.status());
        assertEquals(OBJECTS + 1, r.objects());
        assertTrue(r.source().contains("dc=backup"), r.source());
        assertTrue(r.splitReads().size() >= 8, "where each token range of --splits 8 was read from: " + r.splitReads());
        assertEquals(r.splitReads().size(), r.splitReads().stream().map(s -> s.split()).distinct().count(), "each once");
        for (dev.cairn.backup.report.SplitRead read : r.splitReads()) {
            assertEquals(List.of("backup"), read.readFrom().stream().map(n -> n.datacenter()).distinct().toList(), read.toString());
            assertEquals(List.of(LocalCassandraCluster.BACKUP_CONTACT_POINT),
                    read.readFrom().stream().map(n -> n.node()).distinct().toList(), read.toString());
        }

        assertEquals(0, cli("restore", "--target", "dir:" + archive, "--into", "cassandra",
                "--into-contact-points", LocalCassandraCluster.CONTACT_POINTS, "--into-datacenter", "serving",
                "--into-keyspace", RESTORED, "--state-dir", dir.resolve("restore-state").toString()));
        CassandraSettings restoredSettings = LocalCassandraCluster.settings(RESTORED);
        try (CassandraObjectStore restored = CassandraObjectStore.open(restoredSettings)) {
            assertEquals(expected, contents(restored), "the Cassandra restore holds every object, equal by SHA-256");
            assertEquals(Map.of("photos", BucketAcl.PRIVATE, "thumbs", BucketAcl.PUBLIC_READ), acls(restored));
            assertArrayEquals(MULTIPART_SIZES, partSizes(restored), "the part layout read from datacenter backup, restored");
        }

        Path embedded = dir.resolve("embedded");
        assertEquals(0, cli("restore", "--target", "dir:" + archive, "--into", "embedded:" + embedded));
        try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(embedded)) {
            assertEquals(expected, contents(restored.store()), "the embedded restore holds every object, equal by SHA-256");
            assertArrayEquals(MULTIPART_SIZES, partSizes(restored.store()));
        }

        // Another archive's restore into the keyspace that now holds objects: refused, nothing written.
        Path other = dir.resolve("other-archive");
        Files.createDirectories(other);
        copyTree(archive.resolve("manifests"), other.resolve("manifests"));
        copyTree(archive.resolve("blobs"), other.resolve("blobs"));
        assertEquals(ExitCode.USAGE, cli("restore", "--target", "dir:" + other, "--into", "cassandra",
                "--into-contact-points", LocalCassandraCluster.CONTACT_POINTS, "--into-datacenter", "serving",
                "--into-keyspace", RESTORED, "--state-dir", dir.resolve("other-restore-state").toString()));
    }

    private static Map<String, String> contents(dev.cairn.store.ObjectStore store) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, String> e : StoreFixture.snapshot(store).entrySet()) {
            String[] slash = e.getKey().split("/", 2);
            try (ObjectRead read = store.getObject(slash[0], slash[1]); InputStream in = read.open(0, read.size())) {
                var a = read.info().attributes();
                out.put(e.getKey(), SourceTestContent.sha256(in.readAllBytes()) + " " + a.contentType() + " "
                        + a.cacheControl() + " ad=" + a.userMetadata().get("ad"));
            }
        }
        return out;
    }

    private static long[] partSizes(dev.cairn.store.ObjectStore store) throws Exception {
        ObjectInfo head = store.headObject("photos", "multipart.jpg");
        assertEquals(MULTIPART_SIZES.length, head.partCount());
        return store.partSizes("photos", "multipart.jpg", head);
    }

    private static Map<String, BucketAcl> acls(dev.cairn.store.ObjectStore store) throws Exception {
        Map<String, BucketAcl> out = new TreeMap<>();
        for (BucketInfo b : store.listBuckets()) {
            out.put(b.name(), b.acl());
        }
        return out;
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var walk = Files.walk(from)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Path dest = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(dest);
                } else {
                    Files.copy(p, dest);
                }
            }
        }
    }
}
