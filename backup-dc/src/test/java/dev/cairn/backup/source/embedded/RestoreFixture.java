package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.Main;
import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.SourceTestContent;
import dev.cairn.backup.target.S3Clients;
import dev.cairn.backup.target.Target;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * What the restore tests share: services with one key (and a 64 KB minimum part size where
 * asked), the content they seed (multipart objects, a bucket that was Enabled then Suspended),
 * a backup through the service's checkpoint, an in-process restore, and the listings they compare.
 */
final class RestoreFixture {
    static final String ACCESS = "BACKUPTESTKEY";
    static final String SECRET = "backup-test-secret-0123456789";
    /** Lets a Cairn take parts under 5 MiB, so that multipart objects stay small. */
    static final String MIN_PART = "--cairn.limits.min-part-size=64KB";

    private final Path dir;

    /** Writes the key files into {@code dir}. */
    RestoreFixture(Path dir) throws IOException {
        this.dir = dir;
        Files.writeString(accessFile(), ACCESS + "\n");
        Files.writeString(secretFile(), SECRET + "\n");
    }

    Path accessFile() {
        return dir.resolve("access");
    }

    Path secretFile() {
        return dir.resolve("secret");
    }

    Path archive() {
        return dir.resolve("archive");
    }

    /** A service on {@code dir/name} with the fixture's key. */
    ServiceProcess start(String name, String... extra) throws IOException, InterruptedException {
        return ServiceProcess.start(dir.resolve(name), ACCESS, SECRET, extra);
    }

    /** A client of the service as the restore command makes it. */
    S3Client client(ServiceProcess service) throws IOException {
        return S3Clients.create(service.endpoint(), "us-east-1", accessFile(), secretFile());
    }

    int cli(String... args) {
        return Main.commandLine(BackupSources::open).execute(args);
    }

    /** Backs the service up into {@link #archive()} through its checkpoint; the backup's id. */
    String backup(ServiceProcess service, String... more) throws IOException {
        Path report = dir.resolve("report.json");
        List<String> args = new ArrayList<>(List.of("run", "--source", "embedded", "--service-url", service.endpoint(),
                "--admin-access-key-file", accessFile().toString(), "--admin-secret-key-file", secretFile().toString(),
                "--target", "dir:" + archive(), "--report", report.toString()));
        args.addAll(List.of(more));
        assertEquals(0, cli(args.toArray(String[]::new)));
        return Json.read(Files.readAllBytes(report), RunReport.class, "report").backupId();
    }

    /** The restore command's arguments into the service over S3. */
    List<String> restoreIntoS3(ServiceProcess into, String... more) {
        List<String> args = new ArrayList<>(List.of("restore", "--target", "dir:" + archive(), "--into", "s3",
                "--into-endpoint", into.endpoint(), "--into-access-key-file", accessFile().toString(),
                "--into-secret-key-file", secretFile().toString(), "--state-dir", dir.resolve("restore-state").toString()));
        args.addAll(List.of(more));
        return args;
    }

    /** Where the restores of an archive's tests record their progress: beside the archive, so a restore resumes. */
    static Path stateDir(Target archive) {
        return ((dev.cairn.backup.target.DirectoryTarget) archive).root().resolveSibling("restore-state");
    }

    static Restore.Result restore(Target archive, String id, RestoreDestination into, Set<String> buckets,
                                  boolean allowNonEmpty, int threads) throws IOException, InterruptedException {
        try (Progress progress = new Progress("restore", 0, new PrintStream(new ByteArrayOutputStream()), false)) {
            return new Restore(archive, id, into, buckets, "", allowNonEmpty, threads,
                    new PrintStream(new ByteArrayOutputStream()), stateDir(archive)).run(progress);
        }
    }

    /** Uploads random bytes in parts of these sizes, with a content type, Cache-Control and one metadata entry. */
    static void multipart(S3Client s3, String bucket, String key, Random random, int... partSizes) {
        String upload = s3.createMultipartUpload(r -> r.bucket(bucket).key(key).contentType("image/png")
                .cacheControl("max-age=60").metadata(Map.of("origin", key))).uploadId();
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

    /** Objects img/0.tif, img/1.tif, ... up to {@code count}, each uploaded by {@link #multipart} in parts of these sizes. */
    static void multipartImages(S3Client s3, String bucket, int count, Random random, int... partSizes) {
        for (int i = 0; i < count; i++) {
            multipart(s3, bucket, "img/" + i + ".tif", random, partSizes);
        }
    }

    /**
     * Bucket {@code plain}: two multipart objects (parts of different sizes, a small last one) and
     * a small one; bucket {@code versioned} (Enabled): key v.bin as a multipart version, a plain
     * one, and a multipart one again.
     */
    static void seedMultipart(S3Client s3, Random random) {
        s3.createBucket(r -> r.bucket("plain"));
        multipart(s3, "plain", "mp.bin", random, 200_000, 70_000, 130_000, 1_000);
        multipart(s3, "plain", "three.bin", random, 66_000, 90_000, 17);
        s3.putObject(r -> r.bucket("plain").key("small.jpg"), RequestBody.fromBytes(new byte[] {1, 2, 3}));

        s3.createBucket(r -> r.bucket("versioned"));
        versioning(s3, "versioned", BucketVersioningStatus.ENABLED);
        multipart(s3, "versioned", "v.bin", random, 100_000, 65_536, 5);
        s3.putObject(r -> r.bucket("versioned").key("v.bin"), RequestBody.fromBytes(new byte[] {4, 5}));
        multipart(s3, "versioned", "v.bin", random, 80_000, 90_000, 66_000, 10);
    }

    /**
     * Every object version of the buckets in listing order (ids elided; the time too unless
     * {@code withTimes}): ETag, size, content type, Cache-Control and metadata, then each part of
     * a multipart one as {@code GET ?partNumber=N} and {@code HEAD ?partNumber=N} serve it.
     */
    static Map<String, String> parts(S3Client s3, boolean withTimes, String... buckets) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String bucket : buckets) {
            int place = 0;
            for (ObjectVersion v : s3.listObjectVersions(r -> r.bucket(bucket)).versions()) {
                String name = bucket + "/" + v.key() + " #" + place++ + (withTimes ? " at " + v.lastModified() : "");
                GetObjectResponse head = s3.getObjectAsBytes(r -> r.bucket(bucket).key(v.key()).versionId(v.versionId()))
                        .response();
                out.put(name, v.eTag() + " " + v.size() + " " + head.contentType() + " " + head.cacheControl() + " "
                        + head.metadata());
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

    /** The multipart uploads in progress in the buckets. */
    static int uploadsLeft(S3Client s3, String... buckets) {
        int n = 0;
        for (String bucket : buckets) {
            n += s3.listMultipartUploads(r -> r.bucket(bucket)).uploads().size();
        }
        return n;
    }

    static void versioning(S3Client s3, String bucket, BucketVersioningStatus status) {
        s3.putBucketVersioning(r -> r.bucket(bucket).versioningConfiguration(c -> c.status(status)));
    }

    static void put(S3Client s3, String bucket, String key, String body) {
        s3.putObject(r -> r.bucket(bucket).key(key).contentType("text/plain"), RequestBody.fromString(body));
    }

    /**
     * Bucket {@code photos}, Enabled then Suspended twice over: {@code null} versions on top of a
     * key, in the middle of one, alone, and a {@code null} delete marker; bucket {@code plain}
     * without versioning.
     */
    static void seedSuspended(S3Client s3) {
        s3.createBucket(r -> r.bucket("photos"));
        versioning(s3, "photos", BucketVersioningStatus.ENABLED);
        put(s3, "photos", "middle", "v1");
        put(s3, "photos", "top", "t1");
        put(s3, "photos", "gone", "g1");
        put(s3, "photos", "ids-only", "i1");
        put(s3, "photos", "ids-only", "i2");
        versioning(s3, "photos", BucketVersioningStatus.SUSPENDED);
        put(s3, "photos", "middle", "null in the middle");
        put(s3, "photos", "only-null", "alone");
        versioning(s3, "photos", BucketVersioningStatus.ENABLED);
        put(s3, "photos", "middle", "v2");
        put(s3, "photos", "middle", "v3");
        put(s3, "photos", "top", "t2");
        s3.deleteObject(r -> r.bucket("photos").key("ids-only"));
        versioning(s3, "photos", BucketVersioningStatus.SUSPENDED);
        put(s3, "photos", "top", "null on top");
        s3.deleteObject(r -> r.bucket("photos").key("gone"));

        s3.createBucket(r -> r.bucket("plain"));
        put(s3, "plain", "a", "plain a");
    }

    /** A backup's id, and the versions its service listed ({@link #versionListing}) when it was taken. */
    record ListedBackup(String id, List<String> versionsBefore) {
    }

    /** {@link #seedSuspended} on a service of its own, backed up into {@link #archive()}. */
    ListedBackup backUpSuspended() throws IOException, InterruptedException {
        try (ServiceProcess service = start("data"); S3Client s3 = client(service)) {
            seedSuspended(s3);
            List<String> before = versionListing(s3);
            return new ListedBackup(backup(service), before);
        }
    }

    /** Per bucket of {@link #seedSuspended}: its versioning, then each version and delete marker in listing order, ids other than null elided. */
    static List<String> versionListing(S3Client s3) {
        List<String> out = new ArrayList<>();
        for (String bucket : List.of("photos", "plain")) {
            out.add("bucket " + bucket + " " + s3.getBucketVersioning(r -> r.bucket(bucket)).statusAsString());
            ListObjectVersionsResponse page = s3.listObjectVersions(r -> r.bucket(bucket));
            assertTrue(!page.isTruncated());
            for (ObjectVersion v : page.versions()) {
                String body = s3.getObjectAsBytes(r -> r.bucket(bucket).key(v.key()).versionId(v.versionId())).asUtf8String();
                out.add(bucket + "/" + v.key() + " " + id(v.versionId()) + " latest=" + v.isLatest() + " " + v.eTag()
                        + " " + v.size() + " " + body + " sha=" + SourceTestContent.sha256(body.getBytes()));
            }
            for (DeleteMarkerEntry m : page.deleteMarkers()) {
                out.add(bucket + "/" + m.key() + " marker " + id(m.versionId()) + " latest=" + m.isLatest());
            }
        }
        return out;
    }

    private static String id(String versionId) {
        return "null".equals(versionId) ? "null" : "(id)";
    }
}
