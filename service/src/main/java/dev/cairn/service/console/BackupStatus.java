package dev.cairn.service.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the operations page says of the backup job's last run, from the metrics file the job
 * leaves behind (the last run, the last success, the schedule's next firing). The service never
 * talks to the job; the job writes the file atomically, so a read sees a whole file or the
 * previous one. The history of runs comes from the archive ({@link BackupHistory}).
 */
final class BackupStatus {
    private final Path metricsFile;
    private final Clock clock;

    BackupStatus(Path metricsFile, Clock clock) {
        this.metricsFile = metricsFile;
        this.clock = clock;
    }

    boolean configured() {
        return metricsFile != null;
    }

    /** The last run, the last success and its lag, the next firing; empty when the file is not there (yet). */
    Map<String, Object> latest() {
        Map<String, Object> out = new LinkedHashMap<>();
        if (metricsFile == null || !Files.isRegularFile(metricsFile)) {
            return out;
        }
        Map<String, Double> g = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(metricsFile, StandardCharsets.UTF_8)) {
                String[] f = line.trim().split("\\s+");
                if (f.length == 2 && f[0].startsWith("cairn_backup_")) {
                    try {
                        g.put(f[0].substring("cairn_backup_".length()), Double.parseDouble(f[1]));
                    } catch (NumberFormatException ignored) {
                        // not a sample line
                    }
                }
            }
        } catch (IOException e) {
            out.put("error", "cannot read " + metricsFile + ": " + e.getMessage());
            return out;
        }
        double lastSuccess = g.getOrDefault("last_success_timestamp_seconds", 0.0);
        out.put("lastSuccess", lastSuccess > 0 ? instant(lastSuccess) : null);
        out.put("lagSeconds", lastSuccess > 0 ? Math.max(0, clock.millis() / 1000 - (long) lastSuccess) : null);
        out.put("lastRun", g.containsKey("last_run_timestamp_seconds") ? instant(g.get("last_run_timestamp_seconds")) : null);
        out.put("lastRunSucceeded", g.containsKey("last_run_success") ? g.get("last_run_success") == 1.0 : null);
        out.put("durationSeconds", g.get("last_duration_seconds"));
        out.put("objects", longOf(g.get("last_objects")));
        out.put("logicalBytes", longOf(g.get("last_logical_bytes")));
        out.put("copiedBytes", longOf(g.get("last_copied_bytes")));
        out.put("errors", longOf(g.get("last_errors")));
        out.put("nextRun", g.containsKey("next_run_timestamp_seconds") ? instant(g.get("next_run_timestamp_seconds")) : null);
        return out;
    }

    private static String instant(double epochSeconds) {
        return Instant.ofEpochMilli((long) (epochSeconds * 1000)).toString();
    }

    private static Long longOf(Double v) {
        return v == null ? null : v.longValue();
    }
}
