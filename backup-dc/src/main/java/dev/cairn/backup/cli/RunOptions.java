package dev.cairn.backup.cli;

import dev.cairn.backup.run.Lease;
import dev.cairn.backup.run.RunSettings;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.backup.target.TargetOptions;
import dev.cairn.backup.target.Targets;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The options of a backup run, shared by {@code run} and {@code schedule}. Each default is written once, here. */
public final class RunOptions {
    @Mixin
    public SourceOptions source;

    @Mixin
    public TargetOptions target;

    @Mixin
    public RetentionOptions retention;

    @Option(names = "--report", description = "also write the run's JSON report to this file")
    public Path report;

    @Option(names = "--metrics-file", description = "Prometheus text-format metrics of the last run, for node-exporter's textfile collector")
    public Path metricsFile;

    @Option(names = "--copy-threads", defaultValue = "4", description = "blobs copied at once (default: ${DEFAULT-VALUE})")
    public int copyThreads;

    @Option(names = "--checkpoint-rows", defaultValue = "5000",
            description = "a split records its progress after this many rows (default: ${DEFAULT-VALUE})")
    public int checkpointRows;

    @Option(names = "--checkpoint-seconds", defaultValue = "10",
            description = "... or after this many seconds (default: ${DEFAULT-VALUE})")
    public int checkpointSeconds;

    @Option(names = "--lease-seconds", defaultValue = Lease.DEFAULT_SECONDS,
            description = "the archive lock expires this long after its holder stopped renewing it (default: ${DEFAULT-VALUE})")
    public int leaseSeconds;

    /**
     * The options' own errors, found without contacting anything (the source's are checked by
     * opening it: {@code BackupSources.open}): each run checks them before it starts, and
     * {@code schedule} at its start. Throws {@link IllegalArgumentException} (exit 2).
     */
    public void check() {
        Targets.check(target);
        settings();
        if (checkpointSeconds < 1 || leaseSeconds < 1) {
            throw new IllegalArgumentException("--checkpoint-seconds and --lease-seconds must be at least 1");
        }
        if (retention.keepLast < 0 || retention.keepDaily < 0 || retention.keepWeekly < 0) {
            throw new IllegalArgumentException("--keep-last, --keep-daily and --keep-weekly must not be negative");
        }
    }

    public RunSettings settings() {
        return new RunSettings(source.splitsInFlight, copyThreads, checkpointRows, Duration.ofSeconds(checkpointSeconds),
                Duration.ofSeconds(leaseSeconds));
    }
}
