package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.config.BackupArchiveLocation;
import dev.cairn.service.config.ConsoleProperties;
import dev.cairn.service.config.InvalidSettingException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupHistoryTest {
    @TempDir
    Path dir;

    private final Clock clock = Clock.fixed(Instant.ofEpochSecond(10_000), ZoneOffset.UTC);
    private final AtomicLong nanos = new AtomicLong();

    /** A source that blocks each read until released, counting reads; it fails while {@code failing} is set. */
    static final class SlowSource implements BackupHistory.Source {
        final AtomicInteger reads = new AtomicInteger();
        volatile CountDownLatch gate = new CountDownLatch(1);
        volatile boolean failing;

        @Override
        public String describe() {
            return "s3://slow/";
        }

        @Override
        public List<Map<String, Object>> newest(int n) throws IOException {
            reads.incrementAndGet();
            try {
                if (!gate.await(60, TimeUnit.SECONDS)) {
                    throw new IOException("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
            if (failing) {
                throw new IOException("the archive did not answer");
            }
            return List.of(Map.of("id", "run-" + reads.get()));
        }
    }

    @Test
    void aSlowArchiveNeverHoldsUpTheViewAndIsReadAgainOnlyAfterTheRefresh() throws Exception {
        SlowSource source = new SlowSource();
        try (BackupHistory history = new BackupHistory(source, Duration.ofSeconds(30), nanos::get, clock)) {
            Map<String, Object> first = history.view(); // answers while the read is blocked
            assertEquals("s3://slow/", first.get("archive"));
            assertEquals(List.of(), first.get("runs"));
            assertNull(first.get("readAt"));
            assertEquals(true, first.get("reading"));
            for (int i = 0; i < 5; i++) {
                history.view();
            }
            source.gate.countDown();
            Map<String, Object> read = until(history, v -> v.get("readAt") != null);
            assertEquals(List.of(Map.of("id", "run-1")), read.get("runs"));
            assertEquals("1970-01-01T02:46:40Z", read.get("readAt"));
            assertNull(read.get("error"));
            assertEquals(1, source.reads.get(), "one read at a time");

            nanos.addAndGet(Duration.ofSeconds(29).toNanos());
            history.view();
            assertEquals(1, source.reads.get(), "within the refresh the history read is shown");

            source.failing = true;
            nanos.addAndGet(Duration.ofSeconds(2).toNanos());
            history.view();
            Map<String, Object> failed = until(history, v -> v.get("error") != null);
            assertEquals("the archive did not answer", failed.get("error"));
            assertEquals(List.of(Map.of("id", "run-1")), failed.get("runs"), "the runs read before stay");
            assertEquals(2, source.reads.get());
        }
    }

    @Test
    void aDirectoryArchivesNewestReportsSkippingWhatCannotBeRead() throws Exception {
        Path reports = Files.createDirectories(dir.resolve("archive/reports"));
        for (int i = 0; i < BackupHistory.RUNS + 2; i++) {
            String id = String.format("20261124T05%02d00Z-abcd", i);
            Files.writeString(reports.resolve(id + ".json"), "{\"backupId\":\"" + id + "\",\"status\":\"complete\","
                    + "\"startedAt\":\"2026-11-24T05:00:00Z\",\"durationSeconds\":3.5,\"objects\":7,\"copiedBytes\":99,"
                    + "\"errors\":[]}");
        }
        Files.writeString(reports.resolve("20261124T0599000Z-zzzz.json"), "{ half a report");
        DirectoryReports source = new DirectoryReports(dir.resolve("archive"));
        List<Map<String, Object>> runs = source.newest(BackupHistory.RUNS);
        assertEquals(BackupHistory.RUNS, runs.size(), "the unreadable report is left out, an older one fills in");
        assertEquals("20261124T051100Z-abcd", runs.get(0).get("id"));
        assertEquals("20261124T050200Z-abcd", runs.get(9).get("id"));
        assertEquals(7L, runs.get(0).get("objects"));
        assertEquals(0, runs.get(0).get("errors"));
        assertTrue(new DirectoryReports(dir.resolve("nowhere")).newest(10).isEmpty(), "no report yet");

        try (BackupHistory history = new BackupHistory(source, Duration.ofSeconds(30), nanos::get, clock)) {
            Map<String, Object> view = until(history, v -> v.get("readAt") != null);
            assertEquals("dir:" + dir.resolve("archive"), view.get("archive"));
            assertEquals(runs, view.get("runs"));
        }
    }

    @Test
    void theArchiveSettingNamesADirectoryOrABucketAndAPrefix() {
        assertEquals(Path.of("/b"), BackupArchiveLocation.parse("dir:/b").directory());
        assertEquals(Path.of("/b"), BackupArchiveLocation.parse("/b").directory());
        BackupArchiveLocation s3 = BackupArchiveLocation.parse("s3://archive/cairn/backups");
        assertEquals("archive", s3.bucket());
        assertEquals("cairn/backups/", s3.prefix());
        assertEquals("", BackupArchiveLocation.parse("s3://archive").prefix());
        assertEquals("p/", BackupArchiveLocation.parse("s3://archive/p/").prefix());
        assertThrowsIllegal("s3:///prefix");
        assertThrowsIllegal("http://example.net/archive");
        assertThrowsIllegal("dir:");
    }

    @Test
    void anS3ArchiveNeedsKeysFromFilesOrTheEnvironment() throws Exception {
        ConsoleProperties settings = new ConsoleProperties();
        settings.setBackupArchive("s3://archive/p");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(InvalidSettingException.class,
                () -> BackupArchives.open(settings, Map.of(), clock));
        assertTrue(e.getMessage().contains("AWS_ACCESS_KEY_ID"), e.getMessage());
        assertNotNull(BackupArchives.open(settings, Map.of("AWS_ACCESS_KEY_ID", "a", "AWS_SECRET_ACCESS_KEY", "s"), clock));

        Path access = Files.writeString(dir.resolve("access"), "AKID\n");
        settings.setBackupArchiveAccessKeyFile(access);
        settings.setBackupArchiveSecretKeyFile(dir.resolve("missing"));
        S3ArchiveClient.CredentialSource keys = BackupArchives.credentials(settings, Map.of());
        IOException missing = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, keys::get);
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
        Files.writeString(dir.resolve("missing"), "secret");
        assertEquals(new S3ArchiveClient.Credentials("AKID", "secret", null), keys.get(), "key files are read at each request");

        settings.setBackupArchiveSecretKeyFile(null);
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, settings::validate);
    }

    private static void assertThrowsIllegal(String archive) {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> BackupArchiveLocation.parse(archive), archive);
    }

    /** Views until {@code done} holds (the read runs on the history's own thread). */
    private static Map<String, Object> until(BackupHistory history, Predicate<Map<String, Object>> done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Map<String, Object> v = history.view();
            if (done.test(v) && !Boolean.TRUE.equals(v.get("reading"))) {
                return v;
            }
            Thread.onSpinWait();
            Thread.sleep(5);
        }
        throw new AssertionError("the history was not read within 60 s: " + history.view());
    }
}
