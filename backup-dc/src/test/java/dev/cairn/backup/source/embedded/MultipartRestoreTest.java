package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.backup.Main;
import dev.cairn.backup.source.BackupSources;
import dev.cairn.backup.source.SourceTestContent;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * Multipart objects through the path a user takes: uploaded in parts of different sizes into the
 * real service (a bucket without versioning, and multipart versions of a versioned key); a full
 * backup and an incremental on top through the service's checkpoint; a restore of the incremental
 * into a fresh embedded store and into a Cassandra keyspace; a service started on each answers
 * {@code GET ?partNumber=N} and {@code HEAD ?partNumber=N} of every part with exactly the part's
 * bytes, the same ETag and the same {@code x-amz-mp-parts-count} as before the backup.
 */
@Tag("integration")
class MultipartRestoreTest {
    private static final String ACCESS = "BACKUPTESTKEY";
    private static final String SECRET = "backup-test-secret-0123456789";
    private static final String MIN_PART = "--cairn.limits.min-part-size=64KB";
    private static final String KEYSPACE = "backup_multipart";

    @TempDir
    Path dir;

    private final Random random = new Random(23);

    private static S3Client client(ServiceProcess service) {
        return service.client(ACCESS, SECRET);
    }

    private void multipart(S3Client s3, String bucket, String key, int... partSizes) {
        String upload = s3.createMultipartUpload(r -> r.bucket(bucket).key(key).contentType("image/png")).uploadId();
        List<CompletedPart> parts = new ArrayList<>();
        for (int i = 0; i < partSizes.length; i++) {
            byte[] b = new byte[partSizes[i]];
            random.nextBytes(b);
            int n = i + 1;
            String etag = s3.uploadPart(r -> r.bucket(bucket).key(key).uploadId(upload).partNumber(n),
                    RequestBody.fromBytes(b)).eTag();
            parts.add(CompletedPart.builder().partNumber(n).eTag(etag).build());
        }
        s3.completeMultipartUpload(r -> r.bucket(bucket).key(key).uploadId(upload).multipartUpload(m -> m.parts(parts)));
    }

    private void seed(S3Client s3) {
        s3.createBucket(r -> r.bucket("plain"));
        multipart(s3, "plain", "mp.bin", 200_000, 70_000, 130_000, 1_000);
        s3.putObject(r -> r.bucket("plain").key("small.jpg"), RequestBody.fromBytes(new byte[] {1, 2, 3}));

        s3.createBucket(r -> r.bucket("versioned"));
        s3.putBucketVersioning(r -> r.bucket("versioned").versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        multipart(s3, "versioned", "v.bin", 100_000, 65_536, 5);
        s3.putObject(r -> r.bucket("versioned").key("v.bin"), RequestBody.fromBytes(new byte[] {4, 5}));
        multipart(s3, "versioned", "v.bin", 80_000, 90_000, 66_000, 10);
    }

    /**
     * Every object version: ETag and size, then for a multipart one each part as served by
     * {@code GET ?partNumber=N} (SHA-256 of the bytes, length, Content-Range, parts count, ETag)
     * and {@code HEAD ?partNumber=N}.
     */
    private static Map<String, String> parts(S3Client s3) {
        Map<String, String> out = new TreeMap<>();
        for (String bucket : List.of("plain", "versioned")) {
            for (ObjectVersion v : s3.listObjectVersions(r -> r.bucket(bucket)).versions()) {
                String name = bucket + "/" + v.key() + (v.versionId().equals("null") ? "" : " v" + v.lastModified());
                out.put(name, v.eTag() + " " + v.size());
                if (!v.eTag().contains("-")) {
                    continue;
                }
                int count = Integer.parseInt(v.eTag().replaceAll(".*-([0-9]+)\"?$", "$1"));
                for (int n = 1; n <= count; n++) {
                    int part = n;
                    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(r -> r.bucket(bucket).key(v.key())
                            .versionId(v.versionId()).partNumber(part));
                    GetObjectResponse g = got.response();
                    HeadObjectResponse h = s3.headObject(r -> r.bucket(bucket).key(v.key()).versionId(v.versionId())
                            .partNumber(part));
                    out.put(name + " part " + n, SourceTestContent.sha256(got.asByteArray()) + " " + got.asByteArray().length
                            + " " + g.contentRange() + " parts=" + g.partsCount() + " " + g.eTag()
                            + " head: " + h.contentLength() + " " + h.contentRange() + " parts=" + h.partsCount() + " " + h.eTag());
                }
            }
        }
        return out;
    }

    private int cli(String... args) {
        return Main.commandLine(BackupSources::open).execute(args);
    }

    private int backup(ServiceProcess service) {
        return cli("run", "--source", "embedded", "--service-url", service.url(),
                "--admin-access-key-file", dir.resolve("access").toString(),
                "--admin-secret-key-file", dir.resolve("secret").toString(),
                "--target", "dir:" + dir.resolve("archive"), "--checkpoint-rows", "2");
    }

    /** Backs up, changes, backs up again (incremental); the parts as served before the second backup. */
    private Map<String, String> backupWithIncremental() throws Exception {
        Files.writeString(dir.resolve("access"), ACCESS + "\n");
        Files.writeString(dir.resolve("secret"), SECRET + "\n");
        try (ServiceProcess service = ServiceProcess.start(dir.resolve("data"), ACCESS, SECRET, MIN_PART);
             S3Client s3 = client(service)) {
            seed(s3);
            assertEquals(0, backup(service));
            multipart(s3, "plain", "later.bin", 64 * 1024, 100_000, 3);
            multipart(s3, "versioned", "v.bin", 70_000, 1);
            Map<String, String> before = parts(s3);
            assertTrue(before.containsKey("plain/later.bin part 3"), before.toString());
            assertEquals(4, before.keySet().stream().filter(k -> k.startsWith("versioned/v.bin") && !k.contains("part")).count(),
                    before.toString());
            assertEquals(0, backup(service));
            return before;
        }
    }

    @Test
    void partsOfARestoredMultipartObjectAreServedByNumberFromAFreshEmbeddedStore() throws Exception {
        Map<String, String> before = backupWithIncremental();
        assertEquals(0, cli("restore", "--target", "dir:" + dir.resolve("archive"),
                "--into", "embedded:" + dir.resolve("restored").resolve("engine")));
        try (ServiceProcess restored = ServiceProcess.start(dir.resolve("restored"), ACCESS, SECRET, MIN_PART);
             S3Client s3 = client(restored)) {
            assertEquals(before, parts(s3));
        }

        ByteArrayOutputStream dumped = new ByteArrayOutputStream();
        Path manifests = dir.resolve("archive").resolve("manifests");
        PrintStream saved = System.out;
        System.setOut(new PrintStream(dumped, true, StandardCharsets.UTF_8));
        try (var files = Files.list(manifests)) {
            for (Path m : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".manifest"))::iterator) {
                assertEquals(0, cli("dump", m.toString()));
            }
        } finally {
            System.setOut(saved);
        }
        assertTrue(dumped.toString(StandardCharsets.UTF_8).contains("plain/mp.bin ")
                && dumped.toString(StandardCharsets.UTF_8).contains("partSizes=200000,70000,130000,1000"), dumped.toString());
    }

    @Test
    void partsOfARestoredMultipartObjectAreServedByNumberFromACassandraKeyspace() throws Exception {
        Map<String, String> before = backupWithIncremental();
        try (CqlSession session = CassandraSessions.connect(LocalCassandraCluster.settings(KEYSPACE))) {
            session.execute("DROP KEYSPACE IF EXISTS " + KEYSPACE);
        }
        assertEquals(0, cli("restore", "--target", "dir:" + dir.resolve("archive"), "--into", "cassandra",
                "--into-contact-points", LocalCassandraCluster.CONTACT_POINTS, "--into-datacenter", "serving",
                "--into-keyspace", KEYSPACE));
        try (ServiceProcess restored = ServiceProcess.start(dir.resolve("on-cassandra"), ACCESS, SECRET, MIN_PART,
                "--cairn.store=cassandra", "--cairn.cassandra.contact-points=" + LocalCassandraCluster.CONTACT_POINTS,
                "--cairn.cassandra.keyspace=" + KEYSPACE, "--cairn.cassandra.request-timeout=10s");
             S3Client s3 = client(restored)) {
            assertEquals(before, parts(s3));
        }
    }
}
