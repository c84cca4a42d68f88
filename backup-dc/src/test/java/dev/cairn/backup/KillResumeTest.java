package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.run.Json;
import dev.cairn.store.embedded.EmbeddedStoreDir;
import dev.cairn.backup.target.DirectoryTarget;
import dev.cairn.backup.target.S3Clients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * kill -9 of the real backup command ({@code dev.cairn.backup.Main} in a child JVM, as
 * {@code bin/cairn backup run} starts it) reading the embedded source of a running service
 * through a checkpoint, then the same command again: it resumes the killed run (on a new
 * checkpoint), and a restore holds every object, equal by SHA-256. The first run is killed while
 * it copies small content ahead of the rows, the second once rows are durable (their big content
 * is read row by row), the third completes. Each next run takes the killed run's lock at once (its
 * process is gone from this host), without waiting out the lease, and releases the checkpoint the
 * killed run held. The read rate keeps the runs slow enough to be
 * killed mid-way; the whole test stays within a minute or two.
 */
@Tag("integration")
class KillResumeTest {
    private static final int OBJECTS = 1200;

    @TempDir
    Path dir;

    private Process start(ServiceProcess service, Path access, Path secret, Path archive, String readRate, Path report)
            throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--source", "embedded", "--service-url", service.endpoint(),
                "--admin-access-key-file", access.toString(), "--admin-secret-key-file", secret.toString(),
                "--read-rate", readRate, "--target", "dir:" + archive, "--checkpoint-rows", "50",
                "--copy-threads", "2", "--report", report.toString()));
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("child.log").toFile())).start();
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws IOException;
    }

    /** Kills the child (SIGKILL) once the condition holds; fails if the child ends first. */
    private void killWhen(Process child, Condition condition) throws Exception {
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (!condition.holds()) {
                assertTrue(child.isAlive(), "the job ended before it could be killed: " + Files.readString(dir.resolve("child.log")));
                assertTrue(System.nanoTime() < deadline, "no progress recorded in time");
                Thread.sleep(20);
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static int rowChunks(DirectoryTarget target) throws IOException {
        List<String> chunks = new ArrayList<>();
        target.list("runs/", e -> {
            if (e.name().endsWith(".rows")) {
                chunks.add(e.name());
            }
        });
        return chunks.size();
    }

    /** The largest pack being written (its temporary file), in bytes. */
    private static long stagedPackBytes(Path archive) throws IOException {
        Path packs = archive.resolve("packs");
        if (!Files.isDirectory(packs)) {
            return 0;
        }
        long largest = 0;
        try (var files = Files.list(packs)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                try {
                    largest = Math.max(largest, Files.size(p));
                } catch (java.nio.file.NoSuchFileException gone) {
                    // committed or removed meanwhile
                }
            }
        }
        return largest;
    }

    /** The engine checkpoints the service holds (under its data directory). */
    private static List<String> checkpoints(Path dir) throws IOException {
        Path held = dir.resolve("service-data/checkpoints");
        if (!Files.isDirectory(held)) {
            return List.of();
        }
        try (var files = Files.list(held)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aKilledBackupResumesAndCompletesCorrectly() throws Exception {
        Path access = Files.writeString(dir.resolve("access"), ServiceProcess.ACCESS_KEY + "\n");
        Path secret = Files.writeString(dir.resolve("secret"), ServiceProcess.SECRET_KEY + "\n");
        Path archive = dir.resolve("archive");
        Map<String, String> expected = new TreeMap<>();
        try (ServiceProcess service = ServiceProcess.start(dir);
             S3Client s3 = S3Clients.create(service.endpoint(), "us-east-1", access, secret)) {
            for (String bucket : List.of("one", "two")) {
                s3.createBucket(b -> b.bucket(bucket));
            }
            for (int i = 0; i < OBJECTS; i++) {
                String bucket = i % 2 == 0 ? "one" : "two";
                String key = "obj/" + i;
                byte[] bytes = Seed.bytes(i % 100 == 50 ? 1_100_000 : 2000 + i * 7, i);
                s3.putObject(r -> r.bucket(bucket).key(key).contentType("image/jpeg"), RequestBody.fromBytes(bytes));
                expected.put(bucket + "/" + key, Seed.hash("SHA-256", bytes));
            }

            DirectoryTarget target = new DirectoryTarget(archive);
            // Killed while it copies content ahead: a pack is being written, no row recorded yet.
            killWhen(start(service, access, secret, archive, "1M", dir.resolve("killed-1.json")),
                    () -> rowChunks(target) == 0 && stagedPackBytes(archive) >= 1 << 20);
            assertTrue(Catalog.backups(target).isEmpty(), "a killed run is not listed as a complete backup");
            assertEquals(1, Catalog.runs(target).size(), "its state is kept for resuming");
            assertTrue(Files.exists(archive.resolve("locks/writer.lease")), "the killed run left its lock behind");
            assertEquals(1, checkpoints(dir).size(), "the killed run left its checkpoint held");
            // The next run takes the dead run's lock at once (its lease, 120 s by default, is not waited out).

            // Killed once four row chunks are durable.
            killWhen(start(service, access, secret, archive, "1M", dir.resolve("killed-2.json")),
                    () -> rowChunks(target) >= 4);
            assertTrue(Catalog.backups(target).isEmpty(), "a killed run is not listed as a complete backup");
            assertEquals(1, Catalog.runs(target).size(), "its state is kept for resuming");

            long started = System.nanoTime();
            Process resumed = start(service, access, secret, archive, "0", dir.resolve("resumed.json"));
            assertTrue(resumed.waitFor(120, TimeUnit.SECONDS), "the resumed run ended in time");
            assertEquals(0, resumed.exitValue(), Files.readString(dir.resolve("child.log")));
            assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(110), "the dead run's lease was not waited out");
            assertEquals(List.of(), checkpoints(dir), "every killed run's checkpoint was released");
            RunReport report = Json.read(Files.readAllBytes(dir.resolve("resumed.json")), RunReport.class, "report");
            assertTrue(report.resumed(), "the second run resumed the first: " + Files.readString(dir.resolve("child.log")));
            assertEquals(OBJECTS, report.objects());
            assertTrue(Catalog.runs(target).isEmpty());
            List<BackupRow> rows = StoreFixture.rows(target, Catalog.latest(target).id());
            assertEquals(OBJECTS, rows.size());
        }

        Path restored = dir.resolve("restored");
        assertEquals(0, Main.commandLine(o -> {
            throw new AssertionError("restore reads no source");
        }).execute("restore", "--target", "dir:" + archive, "--into", "embedded:" + restored));
        Map<String, String> actual = new TreeMap<>();
        try (EmbeddedStoreDir store = EmbeddedStoreDir.open(restored)) {
            StoreFixture.snapshot(store.store()).forEach((name, value) -> actual.put(name, value.split(" ")[0]));
        }
        assertEquals(expected, actual, "every object restored, equal by SHA-256");
        assertEquals(0, Main.commandLine(o -> null).execute("verify", "--target", "dir:" + archive));
    }
}
