package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.Main;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.restore.S3Destination;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.source.BackupSources;
import dev.cairn.backup.source.SourceTestContent;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Versioning;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectVersion;

/**
 * A bucket that was Enabled, then Suspended, replayed into a second Cairn over S3 with
 * {@code --replay-versions}: its {@code null} versions (on top of a key, in the middle of one, a
 * {@code null} delete marker) come back as {@code null} versions in their places, and the bucket
 * ends Suspended; ListObjectVersions equals the source's but for the ids other than {@code null}.
 * A restore interrupted in its last pass after writing part of a key's newer versions resumes
 * without writing them twice.
 */
@Tag("integration")
class SuspendedReplayTest {
    private static final String ACCESS = "BACKUPTESTKEY";
    private static final String SECRET = "backup-test-secret-0123456789";

    @TempDir
    Path dir;

    private static S3Client client(ServiceProcess service) {
        return service.client(ACCESS, SECRET);
    }

    private static void versioning(S3Client s3, String bucket, BucketVersioningStatus status) {
        s3.putBucketVersioning(r -> r.bucket(bucket).versioningConfiguration(c -> c.status(status)));
    }

    static void put(S3Client s3, String bucket, String key, String body) {
        s3.putObject(r -> r.bucket(bucket).key(key).contentType("text/plain"), RequestBody.fromString(body));
    }

    static void seed(S3Client s3) {
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

    /** Per bucket: its versioning, then each version and delete marker in listing order, ids other than null elided. */
    static List<String> listing(S3Client s3) {
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

    private String backup() throws Exception {
        Files.writeString(dir.resolve("access"), ACCESS + "\n");
        Files.writeString(dir.resolve("secret"), SECRET + "\n");
        Path report = dir.resolve("report.json");
        try (ServiceProcess service = ServiceProcess.start(dir.resolve("data"), ACCESS, SECRET);
             S3Client s3 = client(service)) {
            seed(s3);
            before = listing(s3);
            assertEquals(0, Main.commandLine(BackupSources::open).execute("run", "--source", "embedded",
                    "--service-url", service.url(), "--admin-access-key-file", dir.resolve("access").toString(),
                    "--admin-secret-key-file", dir.resolve("secret").toString(),
                    "--target", "dir:" + dir.resolve("archive"), "--report", report.toString()));
        }
        return Json.read(Files.readAllBytes(report), RunReport.class, "report").backupId();
    }

    private List<String> before;

    @Test
    void aSuspendedBucketsNullVersionsComeBackInTheirPlacesAndTheBucketStaysSuspended() throws Exception {
        backup();
        assertTrue(before.contains("bucket photos Suspended"), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("photos/middle null latest=false")), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("photos/gone marker null latest=true")), before.toString());
        try (ServiceProcess second = ServiceProcess.start(dir.resolve("second"), ACCESS, SECRET);
             S3Client s3 = client(second)) {
            assertEquals(0, Main.commandLine(BackupSources::open).execute("restore", "--target", "dir:" + dir.resolve("archive"),
                    "--into", "s3", "--into-endpoint", second.url(), "--into-access-key-file", dir.resolve("access").toString(),
                    "--into-secret-key-file", dir.resolve("secret").toString(), "--replay-versions"));
            assertEquals(before, listing(s3));
        }
    }

    @Test
    void aReplayCutOffInItsLastPassResumesWithoutWritingAVersionTwice() throws Exception {
        String id = backup();
        DirectoryTarget archive = new DirectoryTarget(dir.resolve("archive"));
        try (ServiceProcess second = ServiceProcess.start(dir.resolve("second"), ACCESS, SECRET);
             S3Client s3 = client(second)) {
            AtomicBoolean cut = new AtomicBoolean();
            RestoreDestination failing = new CutOff(new S3Destination(client(second), "s3 " + second.url(), true), cut);
            IOException e = assertThrows(IOException.class, () -> restore(archive, id, failing));
            assertTrue(e.getMessage().contains("cut off"), e.getMessage());
            assertTrue(cut.get());
            restore(archive, id, new S3Destination(client(second), "s3 " + second.url(), true));
            assertEquals(before, listing(s3));
        }
    }

    private static void restore(DirectoryTarget archive, String id, RestoreDestination into) throws Exception {
        try (Progress progress = new Progress("restore", 0, new PrintStream(new ByteArrayOutputStream()), false)) {
            new Restore(archive, id, into, Set.of(), "", false, 1, new PrintStream(new ByteArrayOutputStream())).run(progress);
        }
    }

    /**
     * An S3 destination whose replay of photos/middle's versions newer than its {@code null} one
     * writes the oldest of them, then fails, as a job killed between two PUTs would.
     */
    private static final class CutOff implements RestoreDestination {
        private final S3Destination s3;
        private final AtomicBoolean cut;

        CutOff(S3Destination s3, AtomicBoolean cut) {
            this.s3 = s3;
            this.cut = cut;
        }

        @Override
        public void replayOnTop(List<BackupRow> newestFirst, List<ContentSource> contents, int below, boolean resume)
                throws IOException {
            BackupRow first = newestFirst.get(0);
            if (first.key().equals("middle") && newestFirst.size() > 1 && !first.version().version().versionId().equals("null")) {
                int oldest = newestFirst.size() - 1;
                s3.replayOnTop(newestFirst.subList(oldest, oldest + 1), contents.subList(oldest, oldest + 1), below, resume);
                cut.set(true);
                throw new IOException("cut off after one version of " + first.key());
            }
            s3.replayOnTop(newestFirst, contents, below, resume);
        }

        @Override
        public String describe() {
            return s3.describe();
        }

        @Override
        public boolean bucketHasObjects(String bucket) throws IOException {
            return s3.bucketHasObjects(bucket);
        }

        @Override
        public void ensureBucket(BucketInfo bucket) throws IOException {
            s3.ensureBucket(bucket);
        }

        @Override
        public boolean restoresVersions() {
            return true;
        }

        @Override
        public boolean replaysVersions() {
            return true;
        }

        @Override
        public void put(BackupRow row, ContentSource content) throws IOException {
            s3.put(row, content);
        }

        @Override
        public void replay(List<BackupRow> newestFirst, List<ContentSource> contents, boolean clearFirst)
                throws IOException {
            s3.replay(newestFirst, contents, clearFirst);
        }

        @Override
        public void setVersioning(String bucket, Versioning versioning) throws IOException {
            s3.setVersioning(bucket, versioning);
        }

        @Override
        public void close() throws IOException {
            s3.close();
        }
    }
}
