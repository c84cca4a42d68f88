package dev.cairn.backup;

import dev.cairn.backup.cli.SourceFactory;
import dev.cairn.backup.cli.ExitCode;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.store.ObjectStoreSource;
import dev.cairn.backup.target.S3Clients;
import dev.cairn.backup.target.S3Target;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/** A second Cairn service as the S3 target of backups, and as the destination of a restore. */
@Tag("integration")
class S3TargetTest {
    @TempDir
    Path dir;

    @Test
    void backupIntoS3ThenRestoreIntoS3AndEveryObjectIsEqual() throws Exception {
        Path access = Files.writeString(dir.resolve("access"), ServiceProcess.ACCESS_KEY + "\n");
        Path secret = Files.writeString(dir.resolve("secret"), ServiceProcess.SECRET_KEY + "\n");
        Path wrong = Files.writeString(dir.resolve("wrong-secret"), "not-the-secret");
        try (ServiceProcess service = ServiceProcess.start(dir);
             EmbeddedStoreDir source = EmbeddedStoreDir.open(dir.resolve("source"));
             S3Client s3 = S3Clients.create(service.endpoint(), "us-east-1", access, secret)) {
            ObjectStore store = source.store();
            store.createBucket("pics", BucketAcl.PUBLIC_READ);
            for (int i = 0; i < 150; i++) {
                Seed.put(store, "pics", "p/" + i, Seed.bytes(500 + i * 211, i), Seed.attributes(i));
            }
            Seed.put(store, "pics", "big", Seed.bytes(9 << 20, 7), Seed.attributes(1)); // spooled through a file
            s3.createBucket(b -> b.bucket("archive"));
            SourceFactory factory = o -> new ObjectStoreSource(store, "test store", 40, null);

            List<String> target = List.of("--target", "s3://archive/cairn/backups", "--target-endpoint", service.endpoint(),
                    "--target-access-key-file", access.toString());
            List<String> run = new ArrayList<>(List.of("run", "--source", "embedded"));
            run.addAll(target);
            run.addAll(List.of("--target-secret-key-file", secret.toString(), "--report", dir.resolve("r.json").toString()));
            assertEquals(0, Main.commandLine(factory).execute(run.toArray(String[]::new)));
            RunReport first = Json.read(Files.readAllBytes(dir.resolve("r.json")), RunReport.class, "report");
            assertEquals(151, first.objects());

            Seed.put(store, "pics", "p/new", Seed.bytes(3333, 4242), Seed.attributes(2));
            assertEquals(0, Main.commandLine(factory).execute(run.toArray(String[]::new)));
            RunReport second = Json.read(Files.readAllBytes(dir.resolve("r.json")), RunReport.class, "report");
            assertEquals(3333, second.copiedBytes(), "the incremental into S3 copies only the new content");

            try (S3Target t = new S3Target(S3Clients.create(service.endpoint(), "us-east-1", access, secret), "archive",
                    "cairn/backups", service.endpoint())) {
                assertEquals(2, Catalog.backups(t).size());
            }
            List<String> verify = new ArrayList<>(List.of("verify", "--restore-drill"));
            verify.addAll(target);
            verify.addAll(List.of("--target-secret-key-file", secret.toString()));
            assertEquals(0, Main.commandLine(factory).execute(verify.toArray(String[]::new)));

            // Restore into the same service's S3 API: the bucket "pics" is created there.
            List<String> restore = new ArrayList<>(List.of("restore", "--into", "s3", "--into-endpoint", service.endpoint(),
                    "--into-access-key-file", access.toString(), "--into-secret-key-file", secret.toString(),
                    "--state-dir", dir.resolve("restore-state").toString()));
            restore.addAll(target);
            restore.addAll(List.of("--target-secret-key-file", secret.toString()));
            assertEquals(0, Main.commandLine(factory).execute(restore.toArray(String[]::new)));
            TreeMap<String, String> expected = new TreeMap<>();
            TreeMap<String, String> actual = new TreeMap<>();
            for (var e : StoreFixture.snapshot(store).entrySet()) {
                String key = e.getKey().substring("pics/".length());
                dev.cairn.store.ObjectInfo row = store.headObject("pics", key);
                expected.put(key, row.sha256() + " " + row.attributes().contentType() + " " + row.attributes().userMetadata());
            }
            for (S3Object o : s3.listObjectsV2Paginator(b -> b.bucket("pics")).contents()) {
                ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(b -> b.bucket("pics").key(o.key()));
                actual.put(o.key(), Seed.hash("SHA-256", got.asByteArray()) + " " + got.response().contentType() + " "
                        + new TreeMap<>(got.response().metadata()));
            }
            assertEquals(expected, actual);

            // A second restore into the now non-empty bucket is refused.
            List<String> again = new ArrayList<>(restore);
            again.addAll(List.of("--backup", first.backupId()));
            assertTrue(Main.commandLine(factory).execute(again.toArray(String[]::new)) != 0);

            // Wrong secret: a clear error, exit 1, nothing new listed as complete.
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream oldErr = System.err;
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int exit;
            try {
                List<String> bad = new ArrayList<>(List.of("run", "--source", "embedded"));
                bad.addAll(target);
                bad.addAll(List.of("--target-secret-key-file", wrong.toString()));
                exit = Main.commandLine(factory).execute(bad.toArray(String[]::new));
            } finally {
                System.setErr(oldErr);
            }
            assertEquals(ExitCode.FAILED, exit);
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("access denied"), err.toString(StandardCharsets.UTF_8));
            assertTrue(err.toString(StandardCharsets.UTF_8).contains("NOT complete"), err.toString(StandardCharsets.UTF_8));
        }
    }

    @Test
    void anUnreachableTargetIsAClearError() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path access = Files.writeString(dir.resolve("access"), "a");
        Path secret = Files.writeString(dir.resolve("secret"), "b");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Main.commandLine(o -> {
                throw new AssertionError("the target fails first");
            }).execute("run", "--source", "embedded", "--target", "s3://b/p", "--target-endpoint",
                    "http://127.0.0.1:" + port, "--target-access-key-file", access.toString(),
                    "--target-secret-key-file", secret.toString());
        } finally {
            System.setErr(oldErr);
        }
        assertEquals(ExitCode.FAILED, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unreachable"), err.toString(StandardCharsets.UTF_8));
    }
}
