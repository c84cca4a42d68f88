package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.restore.S3Destination;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

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
    @TempDir
    Path dir;

    private List<String> before;

    private String backup(RestoreFixture fixture) throws Exception {
        try (ServiceProcess service = fixture.start("data"); S3Client s3 = fixture.client(service)) {
            RestoreFixture.seedSuspended(s3);
            before = RestoreFixture.versionListing(s3);
            return fixture.backup(service);
        }
    }

    @Test
    void aSuspendedBucketsNullVersionsComeBackInTheirPlacesAndTheBucketStaysSuspended() throws Exception {
        RestoreFixture fixture = new RestoreFixture(dir);
        backup(fixture);
        assertTrue(before.contains("bucket photos Suspended"), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("photos/middle null latest=false")), before.toString());
        assertTrue(before.stream().anyMatch(l -> l.startsWith("photos/gone marker null latest=true")), before.toString());
        try (ServiceProcess second = fixture.start("second"); S3Client s3 = fixture.client(second)) {
            assertEquals(0, fixture.cli(fixture.restoreIntoS3(second, "--replay-versions").toArray(String[]::new)));
            assertEquals(before, RestoreFixture.versionListing(s3));
        }
    }

    @Test
    void aReplayCutOffInItsLastPassResumesWithoutWritingAVersionTwice() throws Exception {
        RestoreFixture fixture = new RestoreFixture(dir);
        String id = backup(fixture);
        DirectoryTarget archive = new DirectoryTarget(fixture.archive());
        try (ServiceProcess second = fixture.start("second"); S3Client s3 = fixture.client(second)) {
            AtomicBoolean cut = new AtomicBoolean();
            RestoreDestination failing = new CutOff(new S3Destination(fixture.client(second), "s3 " + second.endpoint(), true), cut);
            IOException e = assertThrows(IOException.class, () -> RestoreFixture.restore(archive, id, failing, Set.of(), false, 1));
            assertTrue(e.getMessage().contains("cut off"), e.getMessage());
            assertTrue(cut.get());
            RestoreFixture.restore(archive, id, new S3Destination(fixture.client(second), "s3 " + second.endpoint(), true),
                    Set.of(), false, 1);
            assertEquals(before, RestoreFixture.versionListing(s3));
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
