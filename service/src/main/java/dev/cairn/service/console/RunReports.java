package dev.cairn.service.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads a backup run's report, {@code reports/<id>.json} of an archive (docs/format/backup-archive.md),
 * into the row the backups history shows. Only the fields shown are read; others are ignored, so a
 * report of a newer job still shows.
 */
final class RunReports {
    static final String DIRECTORY = "reports/";
    static final String SUFFIX = ".json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private RunReports() {
    }

    /** The history row of a report: id, status, start, duration, objects, bytes copied, number of errors. */
    static Map<String, Object> row(byte[] report) throws IOException {
        JsonNode r = JSON.readTree(report);
        if (r == null || !r.isObject() || !r.path("backupId").isTextual()) {
            throw new IOException("not a run report");
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.path("backupId").asText());
        m.put("status", r.path("status").asText());
        m.put("startedAt", r.path("startedAt").asText());
        m.put("durationSeconds", r.path("durationSeconds").asDouble());
        m.put("objects", r.path("objects").asLong());
        m.put("copiedBytes", r.path("copiedBytes").asLong());
        m.put("errors", r.path("errors").size());
        return m;
    }
}
