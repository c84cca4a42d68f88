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

    private List<String> source;

    private String backup(RestoreFixture fixture) throws Exception {
        try (ServiceProcess service = fixture.start("data"); S3Client s3 = fixture.client(service)) {
            RestoreFixture.seedSuspended(s3);
            source = RestoreFixture.versionListing(s3);
            return fixture.backup(service);
        }
    }

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
        String id = backup(fixture);
        DirectoryTarget archive = new DirectoryTarget(fixture.archive());
        List<String> reference;
        try (ServiceProcess once = fixture.start("once"); S3Client s3 = fixture.client(once)) {
            preExisting(s3);
            restore(archive, id, new S3Destination(fixture.client(once), "s3 " + once.endpoint(), true));
            reference = RestoreFixture.versionListing(s3);
        }
        long versions = source.stream().filter(l -> l.startsWith("photos/")).count();
        assertEquals(versions + PRE_EXISTING, reference.stream().filter(l -> l.startsWith("photos/")).count(),
                reference.toString());

        try (ServiceProcess cut = fixture.start("cut"); S3Client s3 = fixture.client(cut)) {
            preExisting(s3);
            List<Predicate<List<BackupRow>>> cuts = List.of(
                    rows -> rows.get(0).key().equals("ids-only") && rows.size() == 3,
                    rows -> rows.get(0).key().equals("top") && isNull(rows.get(0)),
                    rows -> rows.get(0).key().equals("middle") && rows.size() == 2 && !isNull(rows.get(0)));
            for (Predicate<List<BackupRow>> at : cuts) {
                AtomicBoolean done = new AtomicBoolean();
                CutOff failing = new CutOff(new S3Destination(fixture.client(cut), "s3 " + cut.endpoint(), true), at, done);
                IOException e = assertThrows(IOException.class, () -> restore(archive, id, failing));
                assertTrue(e.getMessage().contains("cut off"), e.getMessage());
                assertTrue(done.get());
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

    /**
     * An S3 destination that, for the first key's versions matching {@code at}, writes the oldest
     * of them, then fails, as a job killed between two PUTs would.
     */
    private static final class CutOff implements RestoreDestination {
        private final S3Destination s3;
        private final Predicate<List<BackupRow>> at;
        private final AtomicBoolean done;

        CutOff(S3Destination s3, Predicate<List<BackupRow>> at, AtomicBoolean done) {
            this.s3 = s3;
            this.at = at;
            this.done = done;
        }

        @Override
        public void replayOnTop(List<BackupRow> newestFirst, List<ContentSource> contents, int below, boolean resume)
                throws IOException {
            if (at.test(newestFirst) && done.compareAndSet(false, true)) {
                int oldest = newestFirst.size() - 1;
                s3.replayOnTop(newestFirst.subList(oldest, oldest + 1), contents.subList(oldest, oldest + 1), below, resume);
                throw new IOException("cut off after one version of " + newestFirst.get(0).key());
            }
            s3.replayOnTop(newestFirst, contents, below, resume);
        }

        @Override
        public int versionCount(String bucket, String key) throws IOException {
            return s3.versionCount(bucket, key);
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
            if (at.test(newestFirst) && done.compareAndSet(false, true)) {
                int oldest = newestFirst.size() - 1;
                s3.replay(newestFirst.subList(oldest, oldest + 1), contents.subList(oldest, oldest + 1), clearFirst);
                throw new IOException("cut off after one version of " + newestFirst.get(0).key());
            }
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
