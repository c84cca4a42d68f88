package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.Main;
import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.SourceTestContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * Versions through the whole path a user takes: versions, delete markers and a suspended bucket's
 * {@code null} version written with the AWS SDK into the real service; {@code run --source
 * embedded} through the service's checkpoint; {@code restore} into a fresh embedded store (the
 * engine directory of a new data directory); a second service started on it answers ListObjectVersions exactly as the first did, and every
 * version's bytes, headers and times are the same.
 */
@Tag("integration")
class VersionedServiceBackupTest {
    private static final String ACCESS = "BACKUPTESTKEY";
    private static final String SECRET = "backup-test-secret-0123456789";

    @TempDir
    Path dir;

    private static S3Client client(ServiceProcess service) {
        return service.client(ACCESS, SECRET);
    }

    private static void put(S3Client s3, String bucket, String key, byte[] body, int n) {
        s3.putObject(r -> r.bucket(bucket).key(key).contentType(n % 2 == 0 ? "image/jpeg" : "image/png")
                .cacheControl("max-age=" + n).metadata(Map.of("n", Integer.toString(n))), RequestBody.fromBytes(body));
    }

    private static void seed(S3Client s3) {
        Random random = new Random(11);
        s3.createBucket(r -> r.bucket("photos"));
        s3.putBucketVersioning(r -> r.bucket("photos").versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        for (int i = 0; i < 3; i++) {
            byte[] b = new byte[2000 + random.nextInt(20_000)];
            random.nextBytes(b);
            put(s3, "photos", "cat.jpg", b, i);
        }
        s3.deleteObject(r -> r.bucket("photos").key("cat.jpg"));
        byte[] big = new byte[1_300_000];
        random.nextBytes(big);
        put(s3, "photos", "dir/big.jpg", big, 3);
        put(s3, "photos", "dir/big.jpg", new byte[] {1, 2, 3}, 4);

        s3.createBucket(r -> r.bucket("legacy"));
        put(s3, "legacy", "old.jpg", new byte[] {5, 6}, 5);
        s3.putBucketVersioning(r -> r.bucket("legacy").versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        put(s3, "legacy", "old.jpg", new byte[] {7, 8, 9}, 6);
        s3.putBucketVersioning(r -> r.bucket("legacy").versioningConfiguration(c -> c.status(BucketVersioningStatus.SUSPENDED)));
        put(s3, "legacy", "old.jpg", new byte[] {10}, 7);
        s3.deleteObject(r -> r.bucket("legacy").key("gone.jpg"));

        s3.createBucket(r -> r.bucket("plain"));
        put(s3, "plain", "a.jpg", new byte[] {11, 12}, 8);
    }

    /** ListObjectVersions of every bucket, paged, and every version's bytes and headers. */
    private static List<String> versions(S3Client s3) {
        List<String> out = new ArrayList<>();
        for (String bucket : List.of("legacy", "photos", "plain")) {
            String status = s3.getBucketVersioning(r -> r.bucket(bucket)).statusAsString();
            out.add("bucket " + bucket + " " + status);
            String keyMarker = null;
            String versionMarker = null;
            ListObjectVersionsResponse page;
            do {
                String km = keyMarker;
                String vm = versionMarker;
                page = s3.listObjectVersions(r -> r.bucket(bucket).maxKeys(2).keyMarker(km).versionIdMarker(vm));
                for (ObjectVersion v : page.versions()) {
                    ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(
                            r -> r.bucket(bucket).key(v.key()).versionId(v.versionId()));
                    GetObjectResponse h = got.response();
                    out.add(bucket + "/" + v.key() + " " + v.versionId() + " latest=" + v.isLatest() + " "
                            + v.lastModified() + " " + v.eTag() + " " + v.size() + " sha="
                            + SourceTestContent.sha256(got.asByteArray()) + " " + h.contentType() + " "
                            + h.cacheControl() + " " + h.metadata() + " " + h.lastModified());
                }
                for (DeleteMarkerEntry m : page.deleteMarkers()) {
                    out.add(bucket + "/" + m.key() + " marker " + m.versionId() + " latest=" + m.isLatest() + " "
                            + m.lastModified());
                }
                keyMarker = page.nextKeyMarker();
                versionMarker = page.nextVersionIdMarker();
            } while (Boolean.TRUE.equals(page.isTruncated()));
        }
        return out;
    }

    @Test
    void versionsBackedUpFromTheServiceComeBackOnAFreshStore() throws Exception {
        Files.writeString(dir.resolve("access"), ACCESS + "\n");
        Files.writeString(dir.resolve("secret"), SECRET + "\n");
        List<String> before;
        try (ServiceProcess service = ServiceProcess.start(dir.resolve("data"), ACCESS, SECRET);
             S3Client s3 = client(service)) {
            seed(s3);
            before = versions(s3);
            int exit = Main.commandLine(BackupSources::open).execute("run", "--source", "embedded",
                    "--service-url", service.endpoint(), "--admin-access-key-file", dir.resolve("access").toString(),
                    "--admin-secret-key-file", dir.resolve("secret").toString(),
                    "--target", "dir:" + dir.resolve("archive"), "--checkpoint-rows", "2");
            assertEquals(0, exit);
        }
        assertTrue(before.stream().anyMatch(l -> l.startsWith("legacy/gone.jpg marker null latest=true")), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("legacy/old.jpg null latest=true")), before.toString());
        assertEquals(0, Main.commandLine(BackupSources::open).execute("restore", "--target", "dir:" + dir.resolve("archive"),
                "--into", "embedded:" + dir.resolve("restored")));
        try (ServiceProcess restored = ServiceProcess.start(dir.resolve("restored"), ACCESS, SECRET);
             S3Client s3 = client(restored)) {
            assertEquals(before, versions(s3));
        }
    }
}
