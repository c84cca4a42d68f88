package dev.cairn.backup.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsFileTest {
    @TempDir
    Path dir;

    private static RunReport report(String status) {
        return new RunReport("20261124T050000Z-abcd", null, status, "src", "dir:/x", "2026-11-24T05:00:00Z",
                "2026-11-24T05:00:10Z", 10.0, false, 5, 500, 2, 200, 0, 0.05,
                "complete".equals(status) ? List.of() : List.of("target full"), List.of());
    }

    private static double gauge(Path file, String name) throws Exception {
        Matcher m = Pattern.compile("^" + name + " (\\S+)$", Pattern.MULTILINE).matcher(Files.readString(file));
        assertTrue(m.find(), name + " in " + Files.readString(file));
        return Double.parseDouble(m.group(1));
    }

    @Test
    void theNextRunAndTheLastSuccessOutliveTheRunsThatFollow() throws Exception {
        Path file = dir.resolve("backup.prom");
        MetricsFile.write(file, report("complete"), 1_000_000);
        MetricsFile.writeNextRun(file, 2_000_000);
        assertEquals(2000, gauge(file, MetricsFile.NEXT_RUN));
        assertEquals(1000, gauge(file, MetricsFile.LAST_SUCCESS));

        MetricsFile.write(file, report("failed"), 3_000_000);
        assertEquals(1000, gauge(file, MetricsFile.LAST_SUCCESS), "a failed run keeps the last success");
        assertEquals(2000, gauge(file, MetricsFile.NEXT_RUN), "and the schedule's plan until it writes the next");
        assertEquals(0, gauge(file, "cairn_backup_last_run_success"));
        MetricsFile.writeNextRun(file, 4_000_000);
        assertEquals(4000, gauge(file, MetricsFile.NEXT_RUN));
        assertEquals(1, Pattern.compile("^# TYPE " + MetricsFile.NEXT_RUN, Pattern.MULTILINE)
                .matcher(Files.readString(file)).results().count(), "one gauge, not two");
        assertEquals(3000, gauge(file, "cairn_backup_last_run_timestamp_seconds"));
    }
}
