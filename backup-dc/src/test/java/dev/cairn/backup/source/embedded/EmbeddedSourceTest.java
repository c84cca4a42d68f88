package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.ServiceProcess;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.backup.source.SourceTestContent;
import dev.cairn.engine.fs.ThreadPriority;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;

/**
 * The embedded source against the real service: objects put with the AWS SDK, a checkpoint
 * taken through the admin endpoint, read read-only while the service keeps taking writes; every
 * object found with its content; the checkpoint released at the end, also after a failure.
 */
@Tag("integration")
class EmbeddedSourceTest {
    private static final String ACCESS = "BACKUPTESTKEY";
    private static final String SECRET = "backup-test-secret-0123456789";

    @TempDir
    Path dir;

    private SourceOptions options(ServiceProcess service, String secret) throws IOException {
        Files.writeString(dir.resolve("access"), ACCESS + "\n");
        Files.writeString(dir.resolve("secret-" + secret.length()), secret + "\n");
        SourceOptions o = new SourceOptions();
        o.kind = SourceOptions.Kind.embedded;
        o.serviceUrl = service.endpoint();
        o.adminAccessKeyFile = dir.resolve("access");
        o.adminSecretKeyFile = dir.resolve("secret-" + secret.length());
        o.readRate = "0";
        o.region = "us-east-1";
        return o;
    }

    private static S3Client client(ServiceProcess service) {
        return service.client(ACCESS, SECRET);
    }

    private static List<Path> checkpointDirs(Path data) throws IOException {
        Path d = data.resolve("checkpoints");
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        try (var s = Files.list(d)) {
            return s.toList();
        }
    }

    @Test
    void aCheckpointIsScannedReadOnlyWhileTheServiceKeepsWritingAndIsReleasedAtTheEnd() throws Exception {
        Path data = dir.resolve("data");
        Map<String, String> expected = new HashMap<>();
        try (ServiceProcess service = ServiceProcess.start(data, ACCESS, SECRET); S3Client s3 = client(service)) {
            s3.createBucket(r -> r.bucket("ads"));
            s3.createBucket(r -> r.bucket("thumbs").acl(BucketCannedACL.PUBLIC_READ));
            Random random = new Random(5);
            for (int i = 0; i < 300; i++) {
                String bucket = i % 4 == 0 ? "thumbs" : "ads";
                String key = "listing/" + (i % 13) + "/photo-" + i + (i % 60 == 0 ? "-ä €" : "") + ".jpg";
                byte[] b = new byte[i % 97 == 3 ? 2_500_000 : 100 + random.nextInt(30_000)];
                random.nextBytes(b);
                s3.putObject(r -> r.bucket(bucket).key(key).contentType("image/jpeg").metadata(Map.of("ad", "x")),
                        RequestBody.fromBytes(b));
                expected.put(bucket + "/" + key, SourceTestContent.sha256(b));
            }

            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger writtenDuring = new AtomicInteger();
            List<Throwable> writerErrors = new ArrayList<>();
            Map<String, String> seen = new ConcurrentHashMap<>();
            SourceOptions o = options(service, SECRET);
            o.readRate = "20M";
            Thread writer;
            String checkpointId;
            try (BackupSource source = BackupSources.open(o)) {
                checkpointId = ((EmbeddedSource) source).checkpointId();
                assertEquals(1, checkpointDirs(data).size(), "one checkpoint held");
                writer = new Thread(() -> {
                    Random r = new Random(9);
                    try {
                        while (writing.get() && writtenDuring.get() < 2000) {
                            int n = writtenDuring.getAndIncrement();
                            byte[] b = new byte[2000 + r.nextInt(8000)];
                            r.nextBytes(b);
                            s3.putObject(q -> q.bucket("ads").key("during/" + n), RequestBody.fromBytes(b));
                            if (n % 10 == 0) {
                                s3.deleteObject(q -> q.bucket("ads").key("listing/1/photo-" + n / 10 + ".jpg"));
                            }
                        }
                    } catch (RuntimeException e) {
                        writerErrors.add(e);
                    }
                });
                writer.start();

                List<BucketInfo> buckets = source.buckets();
                assertEquals(List.of("ads", "thumbs"), buckets.stream().map(BucketInfo::name).toList());
                assertEquals(BucketAcl.PUBLIC_READ, buckets.get(1).acl());
                int[] idleThreads = {0};
                for (BackupSource.Split split : source.splits()) {
                    List<String> positions = new ArrayList<>();
                    source.scan(split, null, (bucket, row, partSizes, position) -> {
                        if (ThreadPriority.currentIoClass() == ThreadPriority.IOPRIO_CLASS_IDLE) {
                            idleThreads[0] = 1;
                        }
                        assertNull(seen.put(bucket + "/" + row.key(), row.sha256()), "once: " + row.key());
                        assertEquals("image/jpeg", row.attributes().contentType());
                        assertEquals(Map.of("ad", "x"), row.attributes().userMetadata());
                        positions.add(position);
                        try (InputStream in = source.openContent(row.sha256())) {
                            assertNotNull(in, "content of " + row.key());
                            assertEquals(row.sha256(), SourceTestContent.sha256Of(in));
                        }
                    });
                    // Resuming after the middle row gives exactly the rest.
                    int mid = positions.size() / 2;
                    List<String> rest = new ArrayList<>();
                    source.scan(split, positions.get(mid), (bucket, row, partSizes, position) -> rest.add(position));
                    assertEquals(positions.subList(mid + 1, positions.size()), rest);
                }
                System.out.println("embedded scan: " + source.describe() + ", " + seen.size() + " rows, "
                        + writtenDuring.get() + " writes meanwhile, reading thread idle I/O class: " + (idleThreads[0] == 1));
                assertNull(source.openContent("0".repeat(64)));
            } finally {
                writing.set(false);
            }
            writer.join();
            assertEquals(List.of(), writerErrors, "the service took writes while the checkpoint was read");
            assertTrue(writtenDuring.get() > 0, "writes happened during the scan");
            assertEquals(expected, seen, "exactly the objects at the checkpoint, none written after it");
            assertEquals(List.of(), checkpointDirs(data), "checkpoint " + checkpointId + " released");
        }
    }

    @Test
    void aWrongSecretIsRefusedAndAFailedOpenHoldsNoCheckpoint() throws Exception {
        Path data = dir.resolve("data2");
        try (ServiceProcess service = ServiceProcess.start(data, ACCESS, SECRET)) {
            IOException e = assertThrows(IOException.class, () -> BackupSources.open(options(service, "not-the-secret")));
            assertTrue(e.getMessage().contains("403"), e.getMessage());
            assertEquals(List.of(), checkpointDirs(data));

            SourceOptions bad = options(service, SECRET);
            bad.readRate = "fast";
            assertThrows(IllegalArgumentException.class, () -> BackupSources.open(bad));
            assertEquals(List.of(), checkpointDirs(data));

            try (BackupSource source = BackupSources.open(options(service, SECRET))) {
                assertThrows(IllegalArgumentException.class,
                        () -> source.scan(new BackupSource.Split("t1_2", "not ours"), null, (b, r, sizes, p) -> { }));
            }
            assertFalse(checkpointDirs(data).stream().findAny().isPresent(), "released after a failed scan");
        }
    }
}
