package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Keys with roles (docs/security.md) through the AWS SDK: what each role may and may not do, that
 * a refusal is AccessDenied and changes nothing, ListBuckets shows a key its buckets only, the
 * actuator and the admin endpoint, and the key file taking effect without a restart.
 */
class AuthorizationTest extends ServiceTestSupport {
    @org.springframework.beans.factory.annotation.Autowired
    private dev.cairn.service.keys.KeyRing keyRing;
    private final HttpClient http = HttpClient.newHttpClient();
    private String photos;
    private String other;

    @BeforeAll
    void keys() throws Exception {
        photos = uniqueBucket("photos");
        other = uniqueBucket("other");
        s3.createBucket(b -> b.bucket(photos));
        s3.createBucket(b -> b.bucket(other));
        s3.putObject(b -> b.bucket(photos).key("kept"), RequestBody.fromString("original"));
        writeKeys("CAIRNTESTMETRICS metrics-secret-0000000000 metrics",
                "READER reader-secret-000000 read-only:" + photos,
                "WRITER writer-secret-000000 write-only:" + photos,
                "EDITOR editor-secret-000000 read-write:" + photos + " read-only:" + other,
                "OWNER1 owner1-secret-000000 admin:" + photos,
                "BACKUP backup-secret-000000 backup");
        awaitAccepted("OWNER1", "owner1-secret-000000");
    }

    @AfterAll
    void restoreKeys() throws Exception {
        writeKeys("CAIRNTESTMETRICS metrics-secret-0000000000 metrics");
    }

    private static void writeKeys(String... lines) throws Exception {
        java.nio.file.Path tmp = KEYS_FILE.resolveSibling("keys.tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, String.join("\n", lines) + "\n");
        Files.move(tmp, KEYS_FILE, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Waits until the service accepts (or, with {@code accepted} false, refuses) the key's signature. */
    private void await(String key, String secret, boolean accepted) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (true) {
            boolean now;
            try (S3Client c = client(key, secret)) {
                c.listBuckets();
                now = true;
            } catch (S3Exception e) {
                now = false;
            }
            if (now == accepted) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(key + " still " + (accepted ? "refused" : "accepted") + " after 60 s");
            }
            Thread.sleep(50);
        }
    }

    private void awaitAccepted(String key, String secret) throws Exception {
        await(key, secret, true);
    }

    private static void assertDenied(Supplier<?> call) {
        S3Exception e = assertThrows(S3Exception.class, call::get);
        assertEquals(403, e.statusCode());
        assertEquals("AccessDenied", e.awsErrorDetails().errorCode());
    }

    private String read(S3Client c, String bucket, String key) {
        return c.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
    }

    @Test
    void readOnlyReadsAndLists() {
        try (S3Client reader = client("READER", "reader-secret-000000")) {
            assertEquals("original", read(reader, photos, "kept"));
            assertTrue(reader.listObjectsV2(b -> b.bucket(photos)).keyCount() >= 1);
            reader.headBucket(b -> b.bucket(photos));
            assertDenied(() -> reader.putObject(b -> b.bucket(photos).key("kept"), RequestBody.fromString("changed")));
            assertDenied(() -> reader.deleteObject(b -> b.bucket(photos).key("kept")));
            assertDenied(() -> reader.createMultipartUpload(b -> b.bucket(photos).key("mp")));
            assertDenied(() -> reader.putBucketAcl(b -> b.bucket(photos).acl("public-read")));
            assertDenied(() -> reader.getObject(b -> b.bucket(other).key("x")));
            assertDenied(() -> reader.deleteBucket(b -> b.bucket(photos)));
            assertEquals(List.of(photos), reader.listBuckets().buckets().stream().map(Bucket::name).toList());
        }
        assertEquals("original", read(s3, photos, "kept"), "refusals change nothing");
    }

    @Test
    void writeOnlyWritesButCannotRead() {
        try (S3Client writer = client("WRITER", "writer-secret-000000")) {
            writer.putObject(b -> b.bucket(photos).key("upload"), RequestBody.fromString("from the writer"));
            assertDenied(() -> writer.getObjectAsBytes(b -> b.bucket(photos).key("upload")));
            assertDenied(() -> writer.listObjectsV2(b -> b.bucket(photos)));
            assertDenied(() -> writer.putObject(b -> b.bucket(other).key("upload"), RequestBody.fromString("x")));
            // Making an object public-read grants a read the key does not hold; the same refusal
            // whether the key exists or not, so it reveals nothing either.
            assertDenied(() -> writer.putObjectAcl(b -> b.bucket(photos).key("kept").acl(ObjectCannedACL.PUBLIC_READ)));
            assertDenied(() -> writer.putObjectAcl(b -> b.bucket(photos).key("never-written").acl(ObjectCannedACL.PUBLIC_READ)));
            assertDenied(() -> writer.deleteObjectTagging(b -> b.bucket(photos).key("never-written")));
            writer.putObject(b -> b.bucket(photos).key("shared").acl(ObjectCannedACL.PUBLIC_READ),
                    RequestBody.fromString("public from the start"));
            writer.deleteObject(b -> b.bucket(photos).key("upload"));
        }
        assertTrue(s3.getObjectAcl(b -> b.bucket(photos).key("kept")).grants().stream().noneMatch(g -> g.grantee().uri() != null));
        assertEquals(2, s3.getObjectAcl(b -> b.bucket(photos).key("shared")).grants().size());
        assertThrows(software.amazon.awssdk.services.s3.model.NoSuchKeyException.class,
                () -> s3.headObject(b -> b.bucket(photos).key("upload")));
    }

    @Test
    void copiesNeedReadOnTheSourceAndWriteOnTheTarget() {
        s3.putObject(b -> b.bucket(other).key("src"), RequestBody.fromString("source"));
        try (S3Client editor = client("EDITOR", "editor-secret-000000");
             S3Client writer = client("WRITER", "writer-secret-000000")) {
            editor.copyObject(b -> b.sourceBucket(other).sourceKey("src").destinationBucket(photos).destinationKey("copy"));
            assertEquals("source", read(editor, photos, "copy"));
            assertDenied(() -> editor.copyObject(b -> b.sourceBucket(photos).sourceKey("copy")
                    .destinationBucket(other).destinationKey("back")));
            assertDenied(() -> writer.copyObject(b -> b.sourceBucket(other).sourceKey("src")
                    .destinationBucket(photos).destinationKey("copy2")));
            assertEquals(2, editor.listBuckets().buckets().size());
        }
        assertThrows(software.amazon.awssdk.services.s3.model.NoSuchKeyException.class,
                () -> s3.headObject(b -> b.bucket(other).key("back")));
    }

    @Test
    void bucketAdminManagesItsBucketOnly() {
        try (S3Client owner = client("OWNER1", "owner1-secret-000000")) {
            owner.putBucketAcl(b -> b.bucket(photos).acl("private"));
            assertEquals(2, owner.getBucketAcl(b -> b.bucket(photos)).grants().size() + 1);
            assertDenied(() -> owner.putBucketAcl(b -> b.bucket(other).acl("public-read")));
            assertDenied(() -> owner.createBucket(b -> b.bucket(uniqueBucket("new"))));
        }
    }

    @Test
    void metricsKeyReadsMetricsAndNothingElse() throws Exception {
        try (S3Client metrics = client(METRICS_KEY, METRICS_SECRET)) {
            assertDenied(() -> metrics.getObject(b -> b.bucket(photos).key("kept")));
            assertDenied(metrics::listBuckets);
        }
        assertEquals(200, actuator("/actuator/prometheus", basicAuth(METRICS_KEY, METRICS_SECRET)).statusCode());
        assertEquals(200, actuator("/actuator/prometheus", basicAuth(ACCESS_KEY, SECRET_KEY)).statusCode());
        HttpResponse<String> wrong = actuator("/actuator/prometheus", basicAuth(METRICS_KEY, "wrong-secret"));
        assertEquals(403, wrong.statusCode());
        assertTrue(wrong.body().contains("<Code>AccessDenied</Code>"), wrong.body());
        assertEquals(403, actuator("/actuator/prometheus", basicAuth("READER", "reader-secret-000000")).statusCode());
        assertEquals(403, actuator("/actuator/prometheus", null).statusCode());
        assertEquals(403, actuator("/actuator", null).statusCode());
        assertEquals(403, actuator("/actuator/health/../prometheus", null).statusCode());
        assertEquals(403, actuator("/actuator/health/%2e%2e/prometheus", null).statusCode());
        assertEquals(200, signedGet("/actuator/prometheus", METRICS_KEY, METRICS_SECRET), "SigV4 as curl --aws-sigv4 sends it");
        assertEquals(403, signedGet("/actuator/prometheus", "READER", "reader-secret-000000"));
        assertEquals(200, actuator("/actuator/health", null).statusCode());
        assertEquals(200, actuator("/actuator/health/liveness", null).statusCode());
    }

    @Test
    void checkpointsNeedTheBackupOrAdminRole() throws Exception {
        assertEquals(200, signedAdminGet("BACKUP", "backup-secret-000000"));
        assertEquals(200, signedAdminGet(ACCESS_KEY, SECRET_KEY));
        assertEquals(403, signedAdminGet("EDITOR", "editor-secret-000000"));
        assertEquals(403, signedAdminGet(METRICS_KEY, METRICS_SECRET));
        try (S3Client backup = client("BACKUP", "backup-secret-000000")) {
            assertDenied(() -> backup.getObject(b -> b.bucket(photos).key("kept")));
            assertDenied(backup::listBuckets);
        }
    }

    @Test
    void theKeyFileTakesEffectWithoutARestart() throws Exception {
        String[] base = {"CAIRNTESTMETRICS metrics-secret-0000000000 metrics",
                "READER reader-secret-000000 read-only:" + photos,
                "WRITER writer-secret-000000 write-only:" + photos,
                "EDITOR editor-secret-000000 read-write:" + photos + " read-only:" + other,
                "OWNER1 owner1-secret-000000 admin:" + photos,
                "BACKUP backup-secret-000000 backup"};
        List<String> added = new java.util.ArrayList<>(List.of(base));
        added.add("LATECOMER latecomer-secret-0000 read-only");
        writeKeys(added.toArray(String[]::new));
        awaitAccepted("LATECOMER", "latecomer-secret-0000");
        try (S3Client late = client("LATECOMER", "latecomer-secret-0000")) {
            assertEquals("original", read(late, photos, "kept"));
        }
        // Rotated: the old secret stops working, the new one works.
        added.set(added.size() - 1, "LATECOMER rotated-secret-000000 read-only");
        writeKeys(added.toArray(String[]::new));
        awaitAccepted("LATECOMER", "rotated-secret-000000");
        await("LATECOMER", "latecomer-secret-0000", false);
        // A file others can read is refused; the keys loaded before stay.
        java.nio.file.Path tmp = KEYS_FILE.resolveSibling("keys.open");
        Files.writeString(tmp, "EVIL evil-secret-0000000 admin\n");
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
        Files.move(tmp, KEYS_FILE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        // Looks at the file now rather than after a sleep the watcher may not have run in.
        assertFalse(keyRing.reloadIfChanged(), "a key file others can read is not loaded");
        await("EVIL", "evil-secret-0000000", false);
        awaitAccepted("LATECOMER", "rotated-secret-000000");
        writeKeys(base);
        await("LATECOMER", "rotated-secret-000000", false);
        awaitAccepted("READER", "reader-secret-000000");
    }

    private HttpResponse<String> actuator(String path, String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint() + path));
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private int signedAdminGet(String key, String secret) throws Exception {
        return signedGet("/_admin/checkpoints", key, secret);
    }

    private int signedGet(String path, String key, String secret) throws Exception {
        software.amazon.awssdk.http.SdkHttpRequest request = software.amazon.awssdk.http.SdkHttpRequest.builder()
                .method(software.amazon.awssdk.http.SdkHttpMethod.GET)
                .uri(URI.create(endpoint() + path)).build();
        var signed = software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.create().sign(r -> r
                .identity(software.amazon.awssdk.identity.spi.AwsCredentialsIdentity.create(key, secret))
                .request(request)
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false));
        HttpRequest.Builder b = HttpRequest.newBuilder(signed.request().getUri()).GET();
        signed.request().forEachHeader((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                values.forEach(v -> b.header(name, v));
            }
        });
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    @Test
    void theFixedAdminKeyStillDoesEverything() {
        assertFalse(s3.listBuckets().buckets().isEmpty());
    }
}
