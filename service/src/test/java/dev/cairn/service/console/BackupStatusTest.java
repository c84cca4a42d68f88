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
        Map<String, Object> latest = new BackupStatus(metrics, now).latest();
        assertEquals("1970-01-01T01:46:40Z", latest.get("lastSuccess"));
        assertEquals(3600L, latest.get("lagSeconds"));
        assertEquals(false, latest.get("lastRunSucceeded"));
        assertEquals(12.5, latest.get("durationSeconds"));
        assertEquals(42L, latest.get("objects"));
        assertEquals(1L, latest.get("errors"));
        assertEquals("1970-01-01T03:20:00Z", latest.get("nextRun"));
        assertNull(latest.get("logicalBytes"), "a figure the file lacks is unknown, not zero");
        assertTrue(new BackupStatus(dir.resolve("none.prom"), now).latest().isEmpty());
    }

    @Test
    void withoutAMetricsFileNothingIsShown() {
        assertFalse(new BackupStatus(null, now).configured());
    }
}
