package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.service.StandaloneService;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;

/**
 * The backups history of the operations page read from an S3 archive: a second Cairn service is
 * the archive's S3 server, holding run reports as backup-dc writes them; and an archive that
 * accepts connections but never answers holds up neither the page nor its figures.
 */
@Tag("integration")
class ConsoleBackupHistoryTest {
    static final String ACCESS = "CONSOLEHISTORY000001";
    static final String SECRET = "console/history+secret000000000000000000";
    static final String ARCHIVE_ACCESS = "ARCHIVEKEY0000000001";
    static final String ARCHIVE_SECRET = "archive/secret+key0000000000000000000000";

    @TempDir
    Path dir;

    static String id(int i) {
        return String.format("20261124T%02d0000Z-c0%02d", i, i);
    }

    private static void putReport(S3Client s3, int i, String status) {
        String report = "{\"backupId\":\"" + id(i) + "\",\"parentId\":null,\"status\":\"" + status + "\","
                + "\"source\":\"test\",\"target\":\"s3://backups/cairn/prod/\",\"startedAt\":\"2026-11-24T" + String.format("%02d", i)
                + ":00:00Z\",\"finishedAt\":\"2026-11-24T" + String.format("%02d", i) + ":00:09Z\",\"durationSeconds\":9.25,"
                + "\"resumed\":false,\"objects\":" + (100 + i) + ",\"logicalBytes\":5000,\"copiedBlobs\":3,\"copiedBytes\":"
                + (1000 * i) + ",\"skippedObjects\":0,\"megabytesPerSecond\":1.0,\"errors\":[]}";
        s3.putObject(b -> b.bucket("backups").key("cairn/prod/reports/" + id(i) + ".json")
                .checksumAlgorithm(ChecksumAlgorithm.SHA256).contentType("application/json"), RequestBody.fromString(report));
    }

    private Map<String, String> consoleSettings(String endpoint, String timeout) throws IOException {
        Path access = Files.writeString(dir.resolve("archive-access"), ARCHIVE_ACCESS + "\n");
        Path secret = Files.writeString(dir.resolve("archive-secret"), ARCHIVE_SECRET + "\n");
        return Map.of("cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET,
                "cairn.console.backup-archive", "s3://backups/cairn/prod",
                "cairn.console.backup-archive-endpoint", endpoint,
                "cairn.console.backup-archive-access-key-file", access.toString(),
                "cairn.console.backup-archive-secret-key-file", secret.toString(),
                "cairn.console.backup-archive-timeout", timeout,
                "cairn.console.backup-archive-refresh", "1s");
    }

    @Test
    void theHistoryComesFromAnotherCairnAsS3AndFollowsNewRunsAndSaysWhenTheArchiveIsDown() throws Exception {
        ConfigurableApplicationContext archive = StandaloneService.start(dir.resolve("archive"),
                Map.of("cairn.auth.access-key", ARCHIVE_ACCESS, "cairn.auth.secret-key", ARCHIVE_SECRET));
        try {
            String endpoint = "http://127.0.0.1:" + StandaloneService.port(archive);
            try (S3Client s3 = StandaloneService.client(archive, ARCHIVE_ACCESS, ARCHIVE_SECRET)) {
                s3.createBucket(b -> b.bucket("backups"));
                for (int i = 0; i < 12; i++) {
                    putReport(s3, i, i == 11 ? "failed" : "complete");
                }
                s3.putObject(b -> b.bucket("backups").key("cairn/prod/manifests/" + id(11) + ".manifest"),
                        RequestBody.fromString("not a report"));
                try (ConfigurableApplicationContext console = StandaloneService.start(dir.resolve("console"),
                        consoleSettings(endpoint, "10s"))) {
                    ConsoleHttp http = ConsoleHttp.signIn(StandaloneService.port(console), ACCESS, SECRET);
                    String page = http.get("/console/ops").body();
                    assertTrue(page.contains("id=\"backuphistory\"") && page.contains("id=\"backuphistorystate\""), page);

                    JsonNode h = http.until("/console/api/ops", j -> j.path("backupHistory").path("readAt").isTextual())
                            .path("backupHistory");
                    assertTrue(h.path("error").isNull(), h.toString());
                    assertEquals("s3://backups/cairn/prod/ at " + endpoint + "/backups", h.path("archive").asText());
                    JsonNode runs = h.path("runs");
                    assertEquals(BackupHistory.RUNS, runs.size(), h.toString());
                    assertEquals(id(11), runs.get(0).path("id").asText(), "newest first");
                    assertEquals("failed", runs.get(0).path("status").asText());
                    assertEquals(111, runs.get(0).path("objects").asLong());
                    assertEquals(11000, runs.get(0).path("copiedBytes").asLong());
                    assertEquals(id(2), runs.get(9).path("id").asText());

                    putReport(s3, 12, "complete");
                    h = http.until("/console/api/ops", j -> j.path("backupHistory").path("runs").path(0).path("id").asText()
                            .equals(id(12))).path("backupHistory");
                    assertEquals(id(3), h.path("runs").path(9).path("id").asText());

                    archive.close();
                    h = http.until("/console/api/ops", j -> j.path("backupHistory").path("error").isTextual())
                            .path("backupHistory");
                    assertTrue(h.path("error").asText().contains(endpoint), h.toString());
                    assertEquals(id(12), h.path("runs").path(0).path("id").asText(), "the runs read before stay on the page");
                }
            }
        } finally {
            archive.close();
        }
    }

    @Test
    void anArchiveThatNeverAnswersHoldsUpNeitherThePageNorItsFigures() throws Exception {
        List<Socket> held = new CopyOnWriteArrayList<>();
        AtomicBoolean hangUp = new AtomicBoolean();
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = silent.accept();
                        if (hangUp.get()) {
                            s.close();
                        } else {
                            held.add(s); // read nothing, answer nothing
                        }
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "silent-archive");
            acceptor.setDaemon(true);
            acceptor.start();
            String endpoint = "http://127.0.0.1:" + silent.getLocalPort();
            try (ConfigurableApplicationContext console = StandaloneService.start(dir.resolve("console"),
                    consoleSettings(endpoint, "10m"))) {
                ConsoleHttp http = ConsoleHttp.signIn(StandaloneService.port(console), ACCESS, SECRET);
                JsonNode first = http.json("/console/api/ops");
                JsonNode h = first.path("backupHistory");
                assertEquals(true, h.path("reading").asBoolean(), h.toString());
                assertTrue(h.path("readAt").isNull() && h.path("error").isNull() && h.path("runs").isEmpty(), h.toString());
                assertTrue(first.path("samples").isArray(), "the other figures answer meanwhile: " + first);
                assertEquals(200, http.get("/console/ops").statusCode());
                http.until("/console/api/ops", j -> !held.isEmpty());

                hangUp.set(true); // the archive hangs up, on a connection made again too
                for (Socket s : held) {
                    s.close();
                }
                h = http.until("/console/api/ops", j -> j.path("backupHistory").path("error").isTextual()).path("backupHistory");
                assertTrue(h.path("error").asText().contains(endpoint), h.toString());
            }

            // A request the archive never answers ends at the timeout.
            hangUp.set(false);
            S3ArchiveClient client = new S3ArchiveClient(URI.create(endpoint), "backups", "us-east-1",
                    () -> new S3ArchiveClient.Credentials(ARCHIVE_ACCESS, ARCHIVE_SECRET, null), Duration.ofSeconds(1),
                    Clock.systemUTC());
            IOException timedOut = assertThrows(IOException.class, () -> client.list("cairn/prod/reports/", null, 1));
            assertTrue(timedOut.getMessage().contains("did not answer within 1000 ms"), timedOut.getMessage());
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
