package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.Main;
import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.restore.PendingUpload;
import dev.cairn.backup.restore.Restore;
import dev.cairn.backup.run.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * {@code kill -9} of the real restore command ({@code dev.cairn.backup.Main} in a child JVM, as
 * {@code bin/cairn backup restore} starts it) into a second Cairn over S3 while it is sending the
 * parts of a multipart object: the upload it leaves is listed by ListMultipartUploads and recorded,
 * by its id or by the intent written before it started, in the restore's state file; the same command again aborts it, completes the restore, and the
 * destination holds no multipart upload and the same objects, parts and ETags as the source (as
 * after an uninterrupted restore). Also halted between CreateMultipartUpload's answer and the
 * record of the upload's id.
 */
@Tag("integration")
class S3RestoreKillTest {
    /** MultipartUploads' test-only halt switch (package-private there). */
    private static final String HALT_PROPERTY = "cairn.backup.test.halt-after-create-upload";
    private static final int OBJECTS = 6;
    private static final int PARTS = 24;

    @TempDir
    Path dir;

    @Test
    void aRestoreKilledMidUploadLeavesNoUploadOnceResumed() throws Exception {
        RestoreFixture fixture = new RestoreFixture(dir);
        int[] sizes = new int[PARTS];
        java.util.Arrays.fill(sizes, 64 * 1024);
        sizes[PARTS - 1] = 1000;
        Map<String, String> before = backUpBig(fixture, new Random(5), OBJECTS, sizes);
        try (ServiceProcess into = fixture.start("into", RestoreFixture.MIN_PART);
             S3Client s3 = fixture.client(into)) {
            List<String> restore = fixture.restoreIntoS3(into, "--threads", "1");
            Process child = start(restore);
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
                while (!midUpload(s3)) {
                    assertTrue(child.isAlive(), "the restore ended before it could be killed: " + log());
                    assertTrue(System.nanoTime() < deadline, "no upload under way in time: " + log());
                    Thread.sleep(10);
                }
            } finally {
                child.destroyForcibly();
                child.waitFor(30, TimeUnit.SECONDS);
            }
            Set<String> left = uploads(s3);
            assertFalse(left.isEmpty(), "the kill left the upload under way behind");
            Set<String> recorded = recorded();
            for (MultipartUpload u : s3.listMultipartUploads(r -> r.bucket("big")).uploads()) {
                assertTrue(covered(recorded, u), "every upload left is recorded: " + u + " " + recorded);
            }

            assertEquals(0, fixture.cli(restore.toArray(String[]::new)), log());
            assertEquals(Set.of(), uploads(s3));
            assertEquals(before, RestoreFixture.parts(s3, false, "big"));
        }
    }

    /**
     * The job halted (as {@code kill -9}) right after CreateMultipartUpload answered, before the
     * upload's id was recorded: the empty upload it leaves is found through the intent recorded
     * before the request, and aborted by the resumed restore.
     */
    @Test
    void aRestoreKilledBeforeItRecordsTheUploadIdLeavesNoUploadOnceResumed() throws Exception {
        RestoreFixture fixture = new RestoreFixture(dir);
        Map<String, String> before = backUpBig(fixture, new Random(7), 3, 64 * 1024, 64 * 1024, 1000);
        try (ServiceProcess into = fixture.start("into", RestoreFixture.MIN_PART);
             S3Client s3 = fixture.client(into)) {
            s3.createBucket(r -> r.bucket("big"));
            // An upload of another key that starts like the first: the resumed restore must leave it alone.
            String unrelated = s3.createMultipartUpload(r -> r.bucket("big").key("img/0.tif.draft")).uploadId();
            List<String> restore = fixture.restoreIntoS3(into, "--threads", "1", "--allow-non-empty");
            Process child = start(restore, "-D" + HALT_PROPERTY + "=true");
            assertTrue(child.waitFor(180, TimeUnit.SECONDS), "the restore did not halt: " + log());
            assertEquals(137, child.exitValue(), log());
            Set<String> left = uploads(s3);
            left.remove(unrelated);
            assertEquals(1, left.size(), "the halt left the upload it had just started: " + uploads(s3));
            assertEquals(Set.of("intent img/0.tif"), recorded(), "its intent is recorded, its id never was");

            assertEquals(0, fixture.cli(restore.toArray(String[]::new)), log());
            assertEquals(Set.of(unrelated), uploads(s3));
            assertEquals(before, RestoreFixture.parts(s3, false, "big"));
        }
    }

    /** Bucket big of {@code count} multipart images on a service of its own, backed up; its parts as served. */
    private static Map<String, String> backUpBig(RestoreFixture fixture, Random random, int count, int... partSizes)
            throws Exception {
        try (ServiceProcess source = fixture.start("data", RestoreFixture.MIN_PART);
             S3Client s3 = fixture.client(source)) {
            s3.createBucket(r -> r.bucket("big"));
            RestoreFixture.multipartImages(s3, "big", count, random, partSizes);
            Map<String, String> before = RestoreFixture.parts(s3, false, "big");
            fixture.backup(source);
            return before;
        }
    }

    private Process start(List<String> args, String... jvmOptions) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("child.log").toFile())).start();
    }

    private String log() throws IOException {
        Path log = dir.resolve("child.log");
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /**
     * What the restore's state file records: "id " and the upload id of each upload, "intent "
     * and the key of each intent (an upload whose id is not recorded yet).
     */
    private Set<String> recorded() throws IOException {
        Path restores = dir.resolve("restore-state");
        if (!Files.isDirectory(restores)) {
            return Set.of();
        }
        Set<String> ids = new TreeSet<>();
        try (Stream<Path> files = Files.list(restores)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                Restore.State state;
                try {
                    state = Json.read(Files.readAllBytes(f), Restore.State.class, f.toString());
                } catch (java.nio.file.NoSuchFileException replaced) {
                    continue;
                }
                if (state.uploads() != null) {
                    for (PendingUpload u : state.uploads()) {
                        ids.add(u.uploadId() == null ? "intent " + u.key() : "id " + u.uploadId());
                    }
                }
            }
        }
        return ids;
    }

    /** The upload is recorded by its id, or by an intent of its key (a resumed restore aborts it either way). */
    private static boolean covered(Set<String> recorded, MultipartUpload u) {
        return recorded.contains("id " + u.uploadId()) || recorded.contains("intent " + u.key());
    }

    private static Set<String> uploads(S3Client s3) {
        return s3.listMultipartUploads(r -> r.bucket("big")).uploads().stream().map(MultipartUpload::uploadId)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** A recorded upload is listed at the destination with some of its parts sent. */
    private boolean midUpload(S3Client s3) throws IOException {
        Set<String> recorded = recorded();
        if (recorded.isEmpty()) {
            return false;
        }
        for (MultipartUpload u : s3.listMultipartUploads(r -> r.bucket("big")).uploads()) {
            try {
                if (covered(recorded, u)
                        && !s3.listParts(r -> r.bucket("big").key(u.key()).uploadId(u.uploadId())).parts().isEmpty()) {
                    return true;
                }
            } catch (S3Exception completedMeanwhile) {
                // the next poll sees the next upload
            }
        }
        return false;
    }
}
