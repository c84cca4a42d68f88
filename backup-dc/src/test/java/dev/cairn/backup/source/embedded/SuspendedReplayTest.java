package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.restore.S3Destination;
import dev.cairn.backup.target.DirectoryTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
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

    @Test
    void aSuspendedBucketsNullVersionsComeBackInTheirPlacesAndTheBucketStaysSuspended() throws Exception {
        RestoreFixture fixture = new RestoreFixture(dir);
        List<String> before = fixture.backUpSuspended().versionsBefore();
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
        RestoreFixture.ListedBackup backup = fixture.backUpSuspended();
        String id = backup.id();
        List<String> before = backup.versionsBefore();
        DirectoryTarget archive = new DirectoryTarget(fixture.archive());
        try (ServiceProcess second = fixture.start("second"); S3Client s3 = fixture.client(second)) {
            CutOffReplay failing = new CutOffReplay(new S3Destination(fixture.client(second), "s3 " + second.endpoint(), true),
                    SuspendedReplayTest::middlesVersionsNewerThanItsNullOne);
            IOException e = assertThrows(IOException.class, () -> RestoreFixture.restore(archive, id, failing, Set.of(), false, 1));
            assertTrue(e.getMessage().contains("cut off"), e.getMessage());
            assertTrue(failing.hasCutOff());
            RestoreFixture.restore(archive, id, new S3Destination(fixture.client(second), "s3 " + second.endpoint(), true),
                    Set.of(), false, 1);
            assertEquals(before, RestoreFixture.versionListing(s3));
        }
    }

    /** The versions of photos/middle newer than its {@code null} one: what the last pass replays of it. */
    private static boolean middlesVersionsNewerThanItsNullOne(List<BackupRow> newestFirst) {
        BackupRow first = newestFirst.get(0);
        return first.key().equals("middle") && newestFirst.size() > 1 && !first.version().version().versionId().equals("null");
    }
}
