package dev.cairn.service.crash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import dev.cairn.service.StandaloneService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The real service on a real, small file system (an 8 MiB tmpfs mounted by the test; skipped
 * where mounting is not permitted): PUTs fill it until the service answers 507
 * InsufficientStorage as S3 XML; reads and deletes go on; once space is freed, PUTs succeed
 * again without a restart; after a restart every acknowledged PUT and DELETE holds.
 */
@Tag("integration")
class FullDiskServiceTest {
    private static final int OBJECT_BYTES = 200 << 10;

    @TempDir
    Path dir;

    @Test
    void aFullDiskRefusesWritesWith507AndWritesResumeOnceSpaceIsFreed() throws Exception {
        Path mount = dir.resolve("small-disk");
        Files.createDirectories(mount);
        mountTmpfs(mount);
        try {
            run(mount);
        } finally {
            unmount(mount);
        }
    }

    private void run(Path mount) throws Exception {
        Path filler = mount.resolve("filler");
        Files.write(filler, new byte[2 << 20]);
        Path data = mount.resolve("data");
        Map<String, String> props = Map.of("cairn.auth.access-key", ServiceTestSupport.ACCESS_KEY,
                "cairn.auth.secret-key", ServiceTestSupport.SECRET_KEY, "cairn.engine.memtable-size", "256KB",
                "cairn.engine.reserved-disk-size", "1MB", "cairn.engine.block-cache-size", "1MB",
                "cairn.cache.object-cache-size", "0");
        Random random = new Random(11);
        List<String> acked = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        ConfigurableApplicationContext ctx = StandaloneService.start(data, props);
        try (S3Client s3 = StandaloneService.client(ctx, ServiceTestSupport.ACCESS_KEY, ServiceTestSupport.SECRET_KEY)) {
            s3.createBucket(r -> r.bucket("full"));
            S3Exception refused = null;
            for (int i = 0; i < 200 && refused == null; i++) {
                byte[] content = new byte[OBJECT_BYTES];
                random.nextBytes(content);
                String key = "o" + i;
                try {
                    s3.putObject(r -> r.bucket("full").key(key), RequestBody.fromBytes(content));
                    acked.add(key);
                    contents.add(content);
                } catch (S3Exception e) {
                    refused = e;
                }
            }
            assertTrue(refused != null, "8 MiB never filled");
            assertEquals(507, refused.statusCode(), refused.toString());
            assertEquals("InsufficientStorage", refused.awsErrorDetails().errorCode());
            assertTrue(acked.size() > 3, "only " + acked.size() + " objects fit");
            S3Exception again = assertThrows(S3Exception.class, () -> s3.putObject(r -> r.bucket("full").key("late"),
                    RequestBody.fromBytes(new byte[OBJECT_BYTES])));
            assertEquals(507, again.statusCode(), "still full: refused at once");

            for (int i = 0; i < acked.size(); i++) {
                int n = i;
                assertArrayEquals(contents.get(n), s3.getObjectAsBytes(r -> r.bucket("full").key(acked.get(n)))
                        .asByteArray(), "reads go on");
            }
            s3.deleteObject(r -> r.bucket("full").key(acked.get(0)));
            assertThrows(NoSuchKeyException.class, () -> s3.getObject(r -> r.bucket("full").key(acked.get(0))),
                    "deletes go on");

            Files.delete(filler);
            byte[] late = new byte[OBJECT_BYTES];
            random.nextBytes(late);
            s3.putObject(r -> r.bucket("full").key("late"), RequestBody.fromBytes(late));
            assertArrayEquals(late, s3.getObjectAsBytes(r -> r.bucket("full").key("late")).asByteArray(),
                    "writes resume once space is freed, with no restart");
            acked.add("late");
            contents.add(late);
        } finally {
            ctx.close();
        }
        ctx = StandaloneService.start(data, props);
        try (S3Client s3 = StandaloneService.client(ctx, ServiceTestSupport.ACCESS_KEY, ServiceTestSupport.SECRET_KEY)) {
            assertThrows(NoSuchKeyException.class, () -> s3.getObject(r -> r.bucket("full").key(acked.get(0))),
                    "the acknowledged delete held");
            for (int i = 1; i < acked.size(); i++) {
                int n = i;
                assertArrayEquals(contents.get(n), s3.getObjectAsBytes(r -> r.bucket("full").key(acked.get(n)))
                        .asByteArray(), "acknowledged " + acked.get(n) + " survived");
            }
        } finally {
            ctx.close();
        }
    }

    private static void mountTmpfs(Path mount) throws Exception {
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString())
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        boolean done = p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        Assumptions.assumeTrue(done, "skipped: cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): " + output.trim());
    }

    private static void unmount(Path mount) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("umount", mount.toString()).inheritIO().start();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            new ProcessBuilder("umount", "-l", mount.toString()).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
