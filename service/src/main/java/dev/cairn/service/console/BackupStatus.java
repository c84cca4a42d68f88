package dev.cairn.service.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the backups page says of the backup job, from what the job leaves behind: its metrics
 * file (the last run, the last success, the schedule's next firing) and the run reports of a
 * directory archive (the history). The service never talks to the job; both files are written
 * atomically by it, so a read sees a whole file or the previous one.
 */
final class BackupStatus {
    static final int HISTORY = 10;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path metricsFile;
    private final Path archive;
    private final Clock clock;

    BackupStatus(Path metricsFile, Path archive, Clock clock) {
        this.metricsFile = metricsFile;
        this.archive = archive;
        this.clock = clock;
    }

    boolean configured() {
        return metricsFile != null || archive != null;
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

    /** The newest run reports of the archive, newest first (ids sort by start time). */
    List<Map<String, Object>> history() {
        List<Map<String, Object>> out = new ArrayList<>();
        if (archive == null) {
            return out;
        }
        Path reports = archive.resolve("reports");
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(reports, "*.json")) {
            ds.forEach(files::add);
        } catch (IOException e) {
            return out;
        }
        files.sort(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed());
        for (Path f : files.subList(0, Math.min(HISTORY, files.size()))) {
            try {
                JsonNode r = JSON.readTree(f.toFile());
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("id", r.path("backupId").asText());
                m.put("status", r.path("status").asText());
                m.put("startedAt", r.path("startedAt").asText());
                m.put("durationSeconds", r.path("durationSeconds").asDouble());
                m.put("objects", r.path("objects").asLong());
                m.put("copiedBytes", r.path("copiedBytes").asLong());
                m.put("errors", r.path("errors").size());
                out.add(m);
            } catch (IOException e) {
                // A report being replaced, or not one of the job's: the rest still shows.
            }
        }
        return out;
    }

    private static String instant(double epochSeconds) {
        return Instant.ofEpochMilli((long) (epochSeconds * 1000)).toString();
    }

    private static Long longOf(Double v) {
        return v == null ? null : v.longValue();
    }
}
