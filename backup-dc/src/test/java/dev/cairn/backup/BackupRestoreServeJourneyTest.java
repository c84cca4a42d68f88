package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.cli.BackupSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Bucket;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The path an operator walks: a running service (embedded store) is backed up with {@code backup
 * run --source embedded}, the backup is restored into a new data directory as docs/backup.md
 * says ({@code restore --into embedded:DIR}), the service jar is started on it as
 * {@code CAIRN_DATA_DIR=DIR bin/cairn serve} starts it, and everything S3 shows of the original
 * (buckets with creation dates, ACLs, versioning and CORS rules; every version's bytes, metadata, content
 * type, ETag and times; multipart objects by part) is what it shows of the restored one.
 */
@Tag("integration")
class BackupRestoreServeJourneyTest {
    private static final String ACCESS = "JOURNEYADMINKEY01";
    private static final String SECRET = "journey-secret-0123456789abcdef";
    private static final String MIN_PART = "--cairn.limits.min-part-size=64KB";

    @TempDir
    Path dir;

    private static void seed(S3Client s3) throws InterruptedException {
        Random random = new Random(30);
        s3.createBucket(r -> r.bucket("photos").acl(BucketCannedACL.PUBLIC_READ));
        for (int i = 0; i < 20; i++) {
            byte[] b = new byte[50 + random.nextInt(40_000)];
            random.nextBytes(b);
            int n = i;
            s3.putObject(r -> r.bucket("photos").key("album/" + (n % 3) + "/p" + n + (n == 7 ? "-ä €.jpg" : ".jpg"))
                    .contentType("image/jpeg").cacheControl("max-age=" + n).metadata(Map.of("shot", "n" + n))
                    .acl(n % 5 == 0 ? ObjectCannedACL.PUBLIC_READ : ObjectCannedACL.PRIVATE), RequestBody.fromBytes(b));
        }
        s3.putBucketCors(r -> r.bucket("photos").corsConfiguration(c -> c.corsRules(
                CORSRule.builder().id("gallery").allowedOrigins("https://*.example.com").allowedMethods("GET", "PUT")
                        .allowedHeaders("content-type").exposeHeaders("ETag").maxAgeSeconds(600).build(),
                CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build())));
        multipart(s3, "photos", "raw/big.tif", random, 70_000, 66_000, 900);
        multipart(s3, "photos", "raw/two.tif", random, 65_536, 10);
        // Each bucket created in a second of its own, so a restore that dated buckets anew could not match them by chance.
        intoNextSecond();
        s3.createBucket(r -> r.bucket("docs"));
        s3.putObject(r -> r.bucket("docs").key("empty.txt").contentType("text/plain"), RequestBody.empty());
        for (int i = 0; i < 6; i++) {
            int n = i;
            s3.putObject(r -> r.bucket("docs").key("d" + n + ".pdf").contentType("application/pdf")
                    .contentDisposition("attachment").metadata(Map.of("rev", "" + n)), RequestBody.fromString("doc " + n));
        }
        intoNextSecond();
        s3.createBucket(r -> r.bucket("versioned"));
        s3.putBucketVersioning(r -> r.bucket("versioned").versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        for (int i = 0; i < 3; i++) {
            int n = i;
            s3.putObject(r -> r.bucket("versioned").key("config.json").contentType("application/json"),
                    RequestBody.fromString("{\"v\":" + n + "}"));
        }
        s3.putObject(r -> r.bucket("versioned").key("gone.txt"), RequestBody.fromString("soon deleted"));
        s3.deleteObject(r -> r.bucket("versioned").key("gone.txt"));
        multipart(s3, "versioned", "layers.bin", random, 64 * 1024, 5);
    }

    private static void multipart(S3Client s3, String bucket, String key, Random random, int... partSizes) {
        String upload = s3.createMultipartUpload(r -> r.bucket(bucket).key(key).contentType("image/tiff")
                .metadata(Map.of("origin", key))).uploadId();
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

    private static String grants(List<Grant> grants) {
        return grants.stream().map(g -> g.grantee().typeAsString() + ":" + g.grantee().uri() + ":" + g.grantee().id()
                + "=" + g.permissionAsString()).sorted().toList().toString();
    }

    /** Everything S3 shows of the service's buckets and objects, one line each. */
    private static List<String> everything(S3Client s3) throws Exception {
        List<String> out = new ArrayList<>();
        for (Bucket bucket : s3.listBuckets().buckets()) {
            String name = bucket.name();
            out.add("bucket " + name + " created=" + bucket.creationDate()
                    + " versioning=" + s3.getBucketVersioning(r -> r.bucket(name)).statusAsString()
                    + " acl=" + grants(s3.getBucketAcl(r -> r.bucket(name)).grants()) + " cors=" + cors(s3, name));
            String keyMarker = null;
            String versionMarker = null;
            ListObjectVersionsResponse page;
            do {
                String km = keyMarker;
                String vm = versionMarker;
                page = s3.listObjectVersions(r -> r.bucket(name).maxKeys(7).keyMarker(km).versionIdMarker(vm));
                for (ObjectVersion v : page.versions()) {
                    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(
                            r -> r.bucket(name).key(v.key()).versionId(v.versionId()));
                    GetObjectResponse h = got.response();
                    GetObjectResponse part1 = s3.getObjectAsBytes(r -> r.bucket(name).key(v.key()).versionId(v.versionId())
                            .partNumber(1)).response();
                    out.add(name + "/" + v.key() + " " + v.versionId() + " latest=" + v.isLatest() + " " + v.lastModified()
                            + " " + v.eTag() + " " + v.size() + " sha256=" + sha256(got.asByteArray()) + " type="
                            + h.contentType() + " cache=" + h.cacheControl() + " disposition=" + h.contentDisposition()
                            + " meta=" + h.metadata() + " modified=" + h.lastModified() + " etag=" + h.eTag()
                            + " parts=" + part1.partsCount() + " part1=" + part1.contentLength() + " " + part1.eTag()
                            + (v.isLatest() ? " acl=" + grants(s3.getObjectAcl(r -> r.bucket(name).key(v.key())).grants()) : ""));
                }
                for (DeleteMarkerEntry m : page.deleteMarkers()) {
                    out.add(name + "/" + m.key() + " marker " + m.versionId() + " latest=" + m.isLatest() + " "
                            + m.lastModified());
                }
                keyMarker = page.nextKeyMarker();
                versionMarker = page.nextVersionIdMarker();
            } while (Boolean.TRUE.equals(page.isTruncated()));
        }
        return out;
    }

    /** The bucket's CORS rules, or "none". */
    private static String cors(S3Client s3, String bucket) {
        try {
            return s3.getBucketCors(r -> r.bucket(bucket)).corsRules().toString();
        } catch (S3Exception e) {
            return e.statusCode() == 404 ? "none" : e.awsErrorDetails().errorCode();
        }
    }

    private static String sha256(byte[] bytes) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    @Test
    void aRunningServiceBackedUpAndRestoredIntoANewDataDirectoryServesEverythingAsBefore() throws Exception {
        Files.writeString(dir.resolve("access"), ACCESS + "\n");
        Files.writeString(dir.resolve("secret"), SECRET + "\n");
        List<String> before;
        try (ServiceProcess original = ServiceProcess.start(dir.resolve("original"), ACCESS, SECRET, MIN_PART);
             S3Client s3 = original.client(ACCESS, SECRET)) {
            seed(s3);
            before = everything(s3);
            assertEquals(0, Main.commandLine(BackupSources::open).execute("run", "--source", "embedded",
                    "--service-url", original.endpoint(), "--admin-access-key-file", dir.resolve("access").toString(),
                    "--admin-secret-key-file", dir.resolve("secret").toString(), "--target", "dir:" + dir.resolve("archive")));
            assertEquals(before, everything(s3), "the backup changed nothing");
        }
        assertEquals(3 + 22 + 7 + 5 + 1, before.size(), "3 buckets, their objects and versions, a delete marker: "
                + String.join("\n", before));
        assertTrue(before.stream().anyMatch(l -> l.startsWith("photos/raw/big.tif ") && l.contains(" parts=3 ")), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("bucket photos ") && l.contains("ID=gallery")), before.toString());

        Path restored = dir.resolve("restored");
        assertEquals(0, Main.commandLine(BackupSources::open).execute("restore", "--target", "dir:" + dir.resolve("archive"),
                "--into", "embedded:" + restored));
        try (ServiceProcess serving = ServiceProcess.serve(restored, ACCESS, SECRET, MIN_PART);
             S3Client s3 = serving.client(ACCESS, SECRET)) {
            assertEquals(String.join("\n", before), String.join("\n", everything(s3)));
        }
    }

    /**
     * Waits until the clock is in the next whole second: S3 dates a bucket or an object to the
     * second, so what is created after this is dated later than what was created before it.
     */
    private static void intoNextSecond() throws InterruptedException {
        long second = System.currentTimeMillis() / 1000;
        while (System.currentTimeMillis() / 1000 == second) {
            Thread.sleep(10);
        }
    }
}
