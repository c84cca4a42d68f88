package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BackupStatusTest {
    @TempDir
    Path dir;

    private final Clock now = Clock.fixed(Instant.ofEpochSecond(10_000), ZoneOffset.UTC);

    @Test
    void theLastRunTheLagAndTheNextRunComeFromTheJobsMetricsFile() throws Exception {
        Path metrics = dir.resolve("backup.prom");
        Files.writeString(metrics, """
                # HELP cairn_backup_last_success_timestamp_seconds Unix time of the last backup run that wrote its manifest.
                # TYPE cairn_backup_last_success_timestamp_seconds gauge
                cairn_backup_last_success_timestamp_seconds 6400
                cairn_backup_last_run_timestamp_seconds 9000
                cairn_backup_last_run_success 0
                cairn_backup_last_duration_seconds 12.500
                cairn_backup_last_objects 42
                cairn_backup_last_copied_bytes 1024
                cairn_backup_last_errors 1
                cairn_backup_next_run_timestamp_seconds 12000
                """);
        Map<String, Object> latest = new BackupStatus(metrics, null, now).latest();
        assertEquals("1970-01-01T01:46:40Z", latest.get("lastSuccess"));
        assertEquals(3600L, latest.get("lagSeconds"));
        assertEquals(false, latest.get("lastRunSucceeded"));
        assertEquals(12.5, latest.get("durationSeconds"));
        assertEquals(42L, latest.get("objects"));
        assertEquals(1L, latest.get("errors"));
        assertEquals("1970-01-01T03:20:00Z", latest.get("nextRun"));
        assertNull(latest.get("logicalBytes"), "a figure the file lacks is unknown, not zero");
        assertTrue(new BackupStatus(dir.resolve("none.prom"), null, now).latest().isEmpty());
    }

    @Test
    void theHistoryIsTheArchivesNewestReportsAndSkipsWhatItCannotRead() throws Exception {
        Path reports = Files.createDirectories(dir.resolve("archive/reports"));
        for (int i = 0; i < BackupStatus.HISTORY + 2; i++) {
            String id = String.format("20261124T05%02d00Z-abcd", i);
            Files.writeString(reports.resolve(id + ".json"), "{\"backupId\":\"" + id + "\",\"status\":\"complete\","
                    + "\"startedAt\":\"2026-11-24T05:00:00Z\",\"durationSeconds\":3.5,\"objects\":7,\"copiedBytes\":99,"
                    + "\"errors\":[]}");
        }
        Files.writeString(reports.resolve("20261124T0599000Z-zzzz.json"), "{ half a report");
        List<Map<String, Object>> history = new BackupStatus(null, dir.resolve("archive"), now).history();
        assertEquals(BackupStatus.HISTORY - 1, history.size(), "the newest ten files, one of them unreadable");
        assertEquals("20261124T051100Z-abcd", history.get(0).get("id"));
        assertEquals(7L, history.get(0).get("objects"));
        assertFalse(new BackupStatus(null, null, now).configured());
        assertTrue(new BackupStatus(null, dir.resolve("nowhere"), now).history().isEmpty());
    }
}
