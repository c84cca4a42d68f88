package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.restore.RestoreDestination;
import dev.cairn.backup.restore.S3Destination;
import dev.cairn.backup.target.DirectoryTarget;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;

/**
 * A replay with {@code --allow-non-empty} into a bucket that already holds other versions of the
 * same keys, cut off once in each of its three passes (after writing the oldest version of a key
 * in pass 0 and pass 2, after writing a key's {@code null} version in pass 1) and resumed each
 * time: the destination ends exactly as after an uninterrupted replay into the same bucket —
 * every version of the backup once, on top of the versions that were there, which are untouched.
 */
@Tag("integration")
class NonEmptyReplayResumeTest {
    @TempDir
    Path dir;

    /** Versions with ids (never a null one) of the backup's keys, and of a key the backup lacks. */
    private static void preExisting(S3Client s3) {
        s3.createBucket(r -> r.bucket("photos"));
        s3.putBucketVersioning(r -> r.bucket("photos").versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        RestoreFixture.put(s3, "photos", "middle", "pre-m1");
        RestoreFixture.put(s3, "photos", "middle", "pre-m2");
        RestoreFixture.put(s3, "photos", "ids-only", "pre-i1");
        RestoreFixture.put(s3, "photos", "top", "pre-t1");
        s3.deleteObject(r -> r.bucket("photos").key("top"));
        RestoreFixture.put(s3, "photos", "other", "pre-o1");
    }

    private static final int PRE_EXISTING = 6;

    @Test
    void aReplayOnTopOfOtherVersionsCutOffInEachPassResumesToExactlyTheUninterruptedResult() throws Exception {
        RestoreFixture fixture = new RestoreFixture(dir);
        RestoreFixture.ListedBackup backup = fixture.backUpSuspended();
        String id = backup.id();
        DirectoryTarget archive = new DirectoryTarget(fixture.archive());
        List<String> reference;
        try (ServiceProcess once = fixture.start("once"); S3Client s3 = fixture.client(once)) {
            preExisting(s3);
            restore(archive, id, new S3Destination(fixture.client(once), "s3 " + once.endpoint(), true));
            reference = RestoreFixture.versionListing(s3);
        }
        long versions = backup.versionsBefore().stream().filter(l -> l.startsWith("photos/")).count();
        assertEquals(versions + PRE_EXISTING, reference.stream().filter(l -> l.startsWith("photos/")).count(),
                reference.toString());

        try (ServiceProcess cut = fixture.start("cut"); S3Client s3 = fixture.client(cut)) {
            preExisting(s3);
            List<Predicate<List<BackupRow>>> cuts = List.of(
                    rows -> rows.get(0).key().equals("ids-only") && rows.size() == 3,
                    rows -> rows.get(0).key().equals("top") && isNull(rows.get(0)),
                    rows -> rows.get(0).key().equals("middle") && rows.size() == 2 && !isNull(rows.get(0)));
            for (Predicate<List<BackupRow>> at : cuts) {
                CutOffReplay failing = new CutOffReplay(new S3Destination(fixture.client(cut), "s3 " + cut.endpoint(), true), at);
                IOException e = assertThrows(IOException.class, () -> restore(archive, id, failing));
                assertTrue(e.getMessage().contains("cut off"), e.getMessage());
                assertTrue(failing.hasCutOff());
            }
            restore(archive, id, new S3Destination(fixture.client(cut), "s3 " + cut.endpoint(), true));
            List<String> after = RestoreFixture.versionListing(s3);
            assertEquals(reference, after);
            for (String pre : List.of("pre-m1", "pre-m2", "pre-i1", "pre-t1", "pre-o1")) {
                assertEquals(1, after.stream().filter(l -> l.contains(" " + pre + " ")).count(), pre + " in " + after);
            }
        }
    }

    private static boolean isNull(BackupRow row) {
        return "null".equals(row.version().version().versionId());
    }

    private static void restore(DirectoryTarget archive, String id, RestoreDestination into) throws Exception {
        RestoreFixture.restore(archive, id, into, Set.of(), true, 2);
    }
}
