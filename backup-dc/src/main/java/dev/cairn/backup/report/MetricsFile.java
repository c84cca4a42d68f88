package dev.cairn.backup.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prometheus text-format metrics of the last run, for node-exporter's textfile collector: written
 * to a temporary file and renamed, so the collector never reads half a file. The last success
 * time survives failed runs (read back from the previous file).
 */
public final class MetricsFile {
    static final String LAST_SUCCESS = "cairn_backup_last_success_timestamp_seconds";
    static final String NEXT_RUN = "cairn_backup_next_run_timestamp_seconds";
    private static final String NEXT_RUN_HELP = "Unix time a running schedule fires next.";

    private MetricsFile() {
    }

    public static void write(Path file, RunReport r, long finishedMillis) throws IOException {
        boolean ok = "complete".equals(r.status());
        double lastSuccess = ok ? finishedMillis / 1000.0 : previous(file, LAST_SUCCESS);
        double nextRun = previous(file, NEXT_RUN);
        StringBuilder b = new StringBuilder();
        gauge(b, LAST_SUCCESS, "Unix time of the last backup run that wrote its manifest (0: none yet).", lastSuccess);
        gauge(b, "cairn_backup_last_run_timestamp_seconds", "Unix time the last backup run ended.", finishedMillis / 1000.0);
        gauge(b, "cairn_backup_last_run_success", "1 when the last backup run wrote its manifest, else 0.", ok ? 1 : 0);
        gauge(b, "cairn_backup_last_duration_seconds", "Duration of the last backup run.", r.durationSeconds());
        gauge(b, "cairn_backup_last_objects", "Objects in the last backup run's manifest.", r.objects());
        gauge(b, "cairn_backup_last_logical_bytes", "Bytes of the objects in the last backup run's manifest.", r.logicalBytes());
        gauge(b, "cairn_backup_last_copied_bytes", "Bytes the last backup run copied into the target.", r.copiedBytes());
        gauge(b, "cairn_backup_last_errors", "Errors of the last backup run.", r.errors().size());
        if (nextRun > 0) {
            gauge(b, NEXT_RUN, NEXT_RUN_HELP, nextRun);
        }
        replace(file, b);
    }

    /** Records when a schedule fires next, keeping the last run's figures. */
    public static void writeNextRun(Path file, long nextMillis) throws IOException {
        StringBuilder b = new StringBuilder();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.contains(NEXT_RUN)) {
                    b.append(line).append('\n');
                }
            }
        }
        gauge(b, NEXT_RUN, NEXT_RUN_HELP, nextMillis / 1000.0);
        replace(file, b);
    }

    private static void replace(Path file, CharSequence b) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        Files.writeString(temp, b, StandardCharsets.UTF_8);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static double previous(Path file, String gauge) {
        try {
            Matcher m = Pattern.compile("^" + gauge + "\\s+(\\S+)$", Pattern.MULTILINE).matcher(Files.readString(file));
            return m.find() ? Double.parseDouble(m.group(1)) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private static void gauge(StringBuilder b, String name, String help, double value) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(" gauge\n");
        b.append(name).append(' ').append(value == Math.rint(value) && Math.abs(value) < 1e15
                ? String.format(Locale.ROOT, "%d", (long) value) : String.format(Locale.ROOT, "%.3f", value)).append('\n');
    }
}
