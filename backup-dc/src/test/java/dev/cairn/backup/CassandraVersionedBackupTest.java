package dev.cairn.backup;

import dev.cairn.backup.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.backup.source.cassandra.CassandraSource;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.S3Clients;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;

/**
 * Versioned buckets on the Cassandra store, end to end on the real test cluster: several
 * versions per key, delete markers, {@code null} versions (of a suspended bucket, and a current
 * row written before its bucket was versioned that no version row lists), an ACL set on an old
 * version; a backup read from datacenter {@code backup}; restores into an embedded store and a
 * fresh keyspace give back every version with its id, time, bytes and metadata, with a clean
 * audit and a sweep that keeps every version's content, and writing every row again changes
 * nothing; a scan resumed after any position of any split gives exactly the rest of the split;
 * a restore into a Cairn service over S3 is refused without {@code --replay-versions} and with it
 * replays each key's versions in order.
 */
@Tag("integration")
class CassandraVersionedBackupTest {
    private static final String KEYSPACE = "cvbackup";
    private static final String RESTORED = "cvbackup_restored";

    @TempDir
    Path dir;

    private static int cli(String... args) {
        return Main.commandLine(BackupSources::open).execute(args);
    }

    private String archive() {
        return "dir:" + dir.resolve("archive");
    }

    private String[] intoCassandra(String... more) {
        List<String> args = new ArrayList<>(List.of("--into", "cassandra", "--into-contact-points",
                LocalCassandraCluster.CONTACT_POINTS, "--into-datacenter", "serving", "--into-keyspace", RESTORED,
                "--state-dir", dir.resolve("restore-state").toString()));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static String[] concat(String[] a, String... b) {
        List<String> all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(String[]::new);
    }

    /** The seed of the embedded test, and a bucket whose keys were written before its versioning. */
    /** The CORS rules of bucket {@code late}, as GetBucketCors answers them. */
    private static final String LATE_CORS = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<CORSConfiguration"
            + " xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><CORSRule><ID>late</ID><AllowedMethod>GET</AllowedMethod>"
            + "<AllowedOrigin>https://*.example.com</AllowedOrigin><MaxAgeSeconds>60</MaxAgeSeconds></CORSRule></CORSConfiguration>";

    private static void seed(ObjectStore s) throws IOException {
        VersionedBackupTest.seed(s);
        s.createBucket("late", BucketAcl.PRIVATE);
        Seed.put(s, "late", "untouched", Seed.bytes(500, 90), VersionedBackupTest.attrs(20));
        Seed.put(s, "late", "changed", Seed.bytes(501, 91), VersionedBackupTest.attrs(21));
        s.setBucketVersioning("late", Versioning.ENABLED);
        s.setBucketDocument(dev.cairn.store.BucketDocument.of("late", dev.cairn.store.BucketDocument.CORS, LATE_CORS));
        Seed.put(s, "late", "changed", Seed.bytes(502, 92), VersionedBackupTest.attrs(22));
        String oldest = null;
        for (ObjectVersion v : s.listObjectVersions("docs", new VersionQuery("a", null, null, null, 10)).versions()) {
            if (v.key().equals("a") && !v.deleteMarker()) {
                oldest = v.versionId();
            }
        }
        s.setObjectVersionAcl("docs", "a", oldest, BucketAcl.PUBLIC_READ);
    }

    @Test
    void versionsOnCassandraAreBackedUpAndRestoredIntoEmbeddedCassandraAndS3() throws Exception {
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        settings.setWriteConsistency(CassandraSettings.WriteConsistency.EACH_QUORUM);
        List<String> before;
        try (CqlSession serving = CassandraSessions.connect(settings)) {
            serving.execute("DROP KEYSPACE IF EXISTS " + KEYSPACE);
            serving.execute("DROP KEYSPACE IF EXISTS " + RESTORED);
            CassandraObjectStore.createSchema(serving, settings);
            try (CassandraObjectStore store = new CassandraObjectStore(serving, false, settings)) {
                seed(store);
                store.awaitSettled();
                before = VersionedBackupTest.versions(store);
            }
        }
        assertTrue(before.stream().anyMatch(l -> l.startsWith("late/untouched null latest=true marker=false")), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("susp/y null latest=true marker=true")), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("docs/a ") && l.contains("acl=PUBLIC_READ")), before.toString());

        Path report = dir.resolve("report.json");
        assertEquals(0, cli("run", "--source", "cassandra", "--contact-points", LocalCassandraCluster.BACKUP_CONTACT_POINT,
                "--datacenter", "backup", "--keyspace", KEYSPACE, "--splits", "8", "--page-size", "2",
                "--checkpoint-rows", "3", "--target", archive(), "--report", report.toString()));
        RunReport r = Json.read(Files.readAllBytes(report), RunReport.class, "report");
        assertEquals("complete", r.status());
        DirectoryTarget target = new DirectoryTarget(dir.resolve("archive"));
        List<BackupRow> rows = StoreFixture.rows(target, r.backupId());
        assertEquals(before.stream().filter(l -> !l.startsWith("bucket ")).count(), rows.size(), "one row per version");
        assertEquals(5, target.read(ArchiveLayout.manifest(r.backupId()))[9], "a backup holding a CORS document is manifest version 5");
        assertTrue(before.contains("bucket late PRIVATE ENABLED documents={cors=" + LATE_CORS + "}"), before.toString());

        Path embedded = dir.resolve("embedded");
        assertEquals(0, cli("restore", "--target", archive(), "--into", "embedded:" + embedded));
        try (EmbeddedStoreDir restored = EmbeddedStoreDir.open(embedded)) {
            assertEquals(before, VersionedBackupTest.versions(restored.store()), "the embedded restore, version by version");
            assertTrue(restored.store().audit().problems().isEmpty(), restored.store().audit().problems().toString());
        }

        assertEquals(0, cli(concat(new String[] {"restore", "--target", archive()}, intoCassandra())));
        checkCassandraRestore(before);
        // Writing every row again (a restore resumed before its last batch was recorded) changes nothing.
        try (var states = Files.list(dir.resolve("restore-state"))) {
            for (Path state : states.toList()) {
                Files.delete(state);
            }
        }
        assertEquals(0, cli(concat(new String[] {"restore", "--target", archive()}, intoCassandra("--allow-non-empty"))));
        checkCassandraRestore(before);

        resumingAfterAnyPositionGivesTheRestOfTheSplit(rows.size());
        replayIntoS3(before);
    }

    private static void checkCassandraRestore(List<String> expected) throws Exception {
        try (CassandraObjectStore restored = CassandraObjectStore.open(LocalCassandraCluster.settings(RESTORED))) {
            assertEquals(expected, VersionedBackupTest.versions(restored), "the Cassandra restore, version by version");
            assertEquals(List.of(), restored.audit().problems());
            restored.sweep(Duration.ZERO);
            assertEquals(List.of(), restored.audit().problems());
            assertEquals(expected, VersionedBackupTest.versions(restored), "a sweep keeps every version's content");
        }
    }

    /** Every row of a split with the position it was given, as the source reports it. */
    private static List<String[]> scan(BackupSource source, BackupSource.Split split, String after) throws IOException {
        List<String[]> out = new ArrayList<>();
        source.scan(split, after, new BackupSource.RowSink() {
            @Override
            public void accept(String bucket, ObjectInfo row, long[] partSizes, String position) {
                out.add(new String[] {bucket + "/" + row.key(), position});
            }

            @Override
            public void acceptVersion(String bucket, VersionRecord v, String position) {
                out.add(new String[] {bucket + "/" + v.version().key() + " " + v.version().versionId() + " "
                        + (v.order() == null ? "-" : Hex.encode(v.order())), position});
            }
        });
        return out;
    }

    private void resumingAfterAnyPositionGivesTheRestOfTheSplit(int rows) throws Exception {
        SourceOptions o = new SourceOptions();
        o.kind = SourceOptions.Kind.cassandra;
        o.contactPoints = List.of(LocalCassandraCluster.BACKUP_CONTACT_POINT);
        o.datacenter = "backup";
        o.keyspace = KEYSPACE;
        o.consistency = "LOCAL_ONE";
        o.pageSize = 2;
        o.splits = 4;
        o.requestTimeoutSeconds = 10;
        int resumed = 0;
        int versionPositions = 0;
        try (CassandraSource source = CassandraSource.open(o)) {
            source.buckets();
            for (BackupSource.Split split : source.splits()) {
                List<String[]> full = scan(source, split, null);
                for (int i = 0; i < full.size(); i++) {
                    List<String> rest = full.subList(i + 1, full.size()).stream().map(x -> x[0]).toList();
                    assertEquals(rest, scan(source, split, full.get(i)[1]).stream().map(x -> x[0]).toList(),
                            "resumed after " + full.get(i)[0] + " in " + split.id());
                    resumed++;
                    if (full.get(i)[1].startsWith("v")) {
                        versionPositions++;
                    }
                }
            }
        }
        assertEquals(rows, resumed, "a position per row of the backup");
        assertTrue(versionPositions >= rows - 2, versionPositions + " positions in table versions");
    }

    private void replayIntoS3(List<String> before) throws Exception {
        Path access = Files.writeString(dir.resolve("access"), ServiceProcess.ACCESS_KEY + "\n");
        Path secret = Files.writeString(dir.resolve("secret"), ServiceProcess.SECRET_KEY + "\n");
        List<String> expected;
        try (CassandraObjectStore source = CassandraObjectStore.open(LocalCassandraCluster.settings(KEYSPACE))) {
            expected = contentOrder(source);
        }
        try (ServiceProcess service = ServiceProcess.start(dir);
             S3Client s3 = S3Clients.create(service.endpoint(), "us-east-1", access, secret)) {
            String[] into = {"restore", "--target", archive(), "--into", "s3", "--into-endpoint", service.endpoint(),
                    "--into-access-key-file", access.toString(), "--into-secret-key-file", secret.toString(),
                    "--state-dir", dir.resolve("restore-state").toString()};
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream stderr = System.err;
            int refused;
            try {
                System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
                refused = cli(into);
            } finally {
                System.setErr(stderr);
            }
            assertEquals(ExitCode.USAGE, refused);
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("--replay-versions"), err.toString(StandardCharsets.UTF_8));
            assertTrue(s3.listBuckets().buckets().isEmpty(), "refused before anything is written");

            assertEquals(0, cli(concat(into, "--replay-versions")));
            assertEquals(expected, contentOrder(s3), "every key's versions in the same order with the same content");
            assertEquals("Suspended", s3.getBucketVersioning(b -> b.bucket("susp")).statusAsString(), "left Suspended");
            var cors = s3.getBucketCors(b -> b.bucket("late")).corsRules();
            assertEquals(List.of("late", "https://*.example.com", 60), List.of(cors.get(0).id(),
                    cors.get(0).allowedOrigins().get(0), cors.get(0).maxAgeSeconds()), "the CORS rules sent as PutBucketCors");
            assertEquals(List.of("null"), s3.listObjectVersions(b -> b.bucket("susp").prefix("y")).deleteMarkers().stream()
                    .map(DeleteMarkerEntry::versionId).toList(), "the null delete marker stays null");
        }
    }

    /** Per bucket, each key's versions newest first: a delete marker, or the content's SHA-256 and metadata. */
    private static List<String> contentOrder(ObjectStore store) throws IOException {
        List<String> out = new ArrayList<>();
        for (BucketInfo b : store.listBuckets()) {
            VersionPage page = store.listObjectVersions(b.name(), new VersionQuery("", null, null, null, 1000));
            assertTrue(!page.truncated());
            for (ObjectVersion v : page.versions()) {
                if (v.deleteMarker()) {
                    out.add(b.name() + "/" + v.key() + " marker");
                    continue;
                }
                try (ObjectRead r = store.getObjectVersion(b.name(), v.key(), v.versionId());
                     InputStream in = r.open(0, r.size())) {
                    out.add(b.name() + "/" + v.key() + " " + Seed.hash("SHA-256", in.readAllBytes()) + " "
                            + r.info().attributes().contentType() + " n=" + r.info().attributes().userMetadata().get("n"));
                }
            }
        }
        return out;
    }

    private static List<String> contentOrder(S3Client s3) throws IOException {
        List<String> out = new ArrayList<>();
        for (var bucket : s3.listBuckets().buckets().stream().map(x -> x.name()).sorted().toList()) {
            ListObjectVersionsResponse page = s3.listObjectVersions(b -> b.bucket(bucket).maxKeys(1000));
            assertTrue(!page.isTruncated());
            // The SDK gives versions and markers apart, each list in listing order. A Cairn version id is its
            // sort id (ascending: newest first); a null version goes right after the entry of its own list
            // that the listing puts before it (its key's newest when none).
            List<String[]> all = new ArrayList<>();
            List<String[]> nulls = new ArrayList<>();
            String[] previous = null;
            for (var v : page.versions()) {
                String[] entry = {v.key(), v.versionId(), ""};
                boolean sameKey = previous != null && previous[0].equals(v.key());
                (VersionId.NULL.equals(v.versionId()) ? nulls : all).add(VersionId.NULL.equals(v.versionId())
                        ? new String[] {v.key(), v.versionId(), "", sameKey ? previous[1] : ""} : entry);
                previous = entry;
            }
            previous = null;
            for (DeleteMarkerEntry m : page.deleteMarkers()) {
                String[] entry = {m.key(), m.versionId(), "marker"};
                boolean sameKey = previous != null && previous[0].equals(m.key());
                (VersionId.NULL.equals(m.versionId()) ? nulls : all).add(VersionId.NULL.equals(m.versionId())
                        ? new String[] {m.key(), m.versionId(), "marker", sameKey ? previous[1] : ""} : entry);
                previous = entry;
            }
            all.sort((a, c) -> !a[0].equals(c[0]) ? Utf8.compare(a[0], c[0]) : Arrays.compareUnsigned(sortOf(a[1]), sortOf(c[1])));
            for (String[] n : nulls) {
                int at = 0;
                for (int i = 0; i < all.size(); i++) {
                    boolean before = n[3].isEmpty() ? Utf8.compare(all.get(i)[0], n[0]) < 0
                            : all.get(i)[0].equals(n[0]) && all.get(i)[1].equals(n[3]) || Utf8.compare(all.get(i)[0], n[0]) < 0;
                    if (before) {
                        at = i + 1;
                    }
                }
                all.add(at, n);
            }
            for (String[] v : all) {
                if (!v[2].isEmpty()) {
                    out.add(bucket + "/" + v[0] + " marker");
                    continue;
                }
                try (ResponseInputStream<GetObjectResponse> in = s3.getObject(g -> g.bucket(bucket).key(v[0]).versionId(v[1]))) {
                    out.add(bucket + "/" + v[0] + " " + Seed.hash("SHA-256", in.readAllBytes()) + " "
                            + in.response().contentType() + " n=" + in.response().metadata().get("n"));
                }
            }
        }
        return out;
    }

    private static byte[] sortOf(String versionId) {
        byte[] sort = VersionId.NULL.equals(versionId) ? null : VersionId.decode(versionId);
        assertTrue(VersionId.NULL.equals(versionId) || sort != null, versionId);
        return sort == null ? new byte[0] : sort;
    }

    /** UTF-8 byte order of keys, as listings use. */
    private static final class Utf8 {
        static int compare(String a, String b) {
            return java.util.Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
        }
    }
}
