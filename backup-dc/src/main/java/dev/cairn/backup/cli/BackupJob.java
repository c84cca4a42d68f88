package dev.cairn.backup.cli;

import dev.cairn.backup.time.JobClock;
import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.archive.Catalog;
import dev.cairn.backup.prune.Pruner;
import dev.cairn.backup.report.MetricsFile;
import dev.cairn.backup.report.Progress;
import dev.cairn.backup.report.RunReport;
import dev.cairn.backup.report.SplitRead;
import dev.cairn.backup.run.BackupRun;
import dev.cairn.backup.run.Json;
import dev.cairn.backup.run.Lease;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One backup run as the command line performs it (for {@code run} and each firing of
 * {@code schedule}): run, report (target, {@code --report}, metrics), then prune when a
 * retention option is given.
 */
final class BackupJob {
    private BackupJob() {
    }

    static int runOnce(JobEnvironment environment, RunOptions o, PrintStream log) {
        JobClock clock = environment.clock();
        long started = clock.millis();
        List<String> errors = new ArrayList<>();
        BackupRun run = null;
        BackupRun.Result result = null;
        String sourceDescription = null;
        List<SplitRead> splitReads = List.of();
        int exit = ExitCode.OK;
        Target target = null;
        try {
            Opened opened;
            try {
                opened = open(environment, o);
            } catch (IllegalArgumentException e) {
                log.println("cairn backup: error: " + ExitCode.message(e));
                return ExitCode.USAGE;
            }
            target = opened.target();
            try (BackupSource source = opened.source()) {
                sourceDescription = source.describe();
                source.logSplitReadsTo(log);
                Catalog.Backup parent = Catalog.latest(target);
                long estimate = parent == null ? 0 : parent.trailer().objects();
                try (Progress progress = Progress.onStderr("backup", estimate, clock)) {
                    run = new BackupRun(source, target, o.settings(), log, progress, clock);
                    result = run.execute();
                } finally {
                    splitReads = source.splitReads();
                }
            }
        } catch (Lease.HeldException e) {
            log.println("cairn backup: " + e.getMessage() + "; not starting another run");
            return ExitCode.LOCKED;
        } catch (IOException | RuntimeException e) {
            errors.add(ExitCode.message(e));
            exit = ExitCode.FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            errors.add("interrupted");
            exit = ExitCode.FAILED;
        }
        long finished = clock.millis();
        RunReport report = report(o, run, result, sourceDescription, target, started, finished, errors, splitReads);
        exit = Math.max(exit, publish(o, target, report, finished, log));
        if (result != null) {
            log.printf("backup %s complete: %,d objects (%s), copied %,d new blobs (%s) in %.1f s%s%n",
                    result.backupId(), result.trailer().objects(), Progress.human(result.trailer().logicalBytes()),
                    result.trailer().copiedBlobs(), Progress.human(result.trailer().copiedBytes()), result.seconds(),
                    result.skipped() > 0 ? "; " + result.skipped() + " objects deleted during the scan were left out" : "");
        } else {
            log.println("cairn backup: error: " + String.join("; ", errors));
            log.println("cairn backup: the backup is NOT complete" + (run != null && run.backupId() != null
                    ? "; the next run resumes " + run.backupId() : ""));
        }
        if (exit == ExitCode.OK && o.retention.any()) {
            try {
                Pruner.Result pr = new Pruner(target, log, clock).prune(o.retention.retention(), false,
                        java.time.Duration.ofSeconds(o.leaseSeconds));
                log.println(pr.summary());
            } catch (IOException | RuntimeException e) {
                log.println("cairn backup: prune after the run failed: " + ExitCode.message(e));
                exit = ExitCode.FAILED;
            }
        }
        if (target != null) {
            try {
                target.close();
            } catch (IOException ignored) {
                // nothing left to write
            }
        }
        return exit;
    }

    private record Opened(Target target, BackupSource source) {
    }

    /**
     * The options checked ({@link RunOptions#check}; the source's by opening it), then the target
     * and the source opened. An {@link IllegalArgumentException} is a mistake in the options (exit 2).
     */
    private static Opened open(JobEnvironment environment, RunOptions o) throws IOException {
        o.check();
        Target target = o.target.open();
        try {
            return new Opened(target, environment.sources().open(o.source));
        } catch (IOException | RuntimeException e) {
            closeQuietly(target);
            throw e;
        }
    }

    /**
     * What {@code schedule} checks at its start, so that a mistake shows then and not at the first
     * firing: the options, the target and the source opened as each run opens them (for the
     * embedded source a checkpoint taken and released), and the target read once.
     */
    static void checkBeforeFirstRun(JobEnvironment environment, RunOptions o) throws IOException {
        Opened opened = open(environment, o);
        try (Target target = opened.target(); BackupSource source = opened.source()) {
            target.size(ArchiveLayout.WRITER_LOCK);
            source.describe();
        }
    }

    private static void closeQuietly(Target target) {
        try {
            target.close();
        } catch (IOException ignored) {
            // opened only to be checked
        }
    }

    private static RunReport report(RunOptions o, BackupRun run, BackupRun.Result r, String source, Target target,
                                    long started, long finished, List<String> errors, List<SplitRead> splitReads) {
        List<String> all = new ArrayList<>(errors);
        double seconds = (finished - started) / 1000.0;
        return new RunReport(
                run == null ? null : run.backupId(),
                run == null ? null : run.parentId(),
                r != null ? "complete" : "failed",
                source,
                target == null ? o.target.target : target.describe(),
                Instant.ofEpochMilli(started).toString(),
                Instant.ofEpochMilli(finished).toString(),
                seconds,
                run != null && run.resumed(),
                r == null ? 0 : r.trailer().objects(),
                r == null ? 0 : r.trailer().logicalBytes(),
                r == null ? 0 : r.trailer().copiedBlobs(),
                r == null ? 0 : r.trailer().copiedBytes(),
                r == null ? 0 : r.skipped(),
                r == null || seconds <= 0 ? 0 : r.trailer().logicalBytes() / seconds / 1e6,
                all,
                splitReads);
    }

    private static int publish(RunOptions o, Target target, RunReport report, long finished, PrintStream log) {
        int exit = ExitCode.OK;
        byte[] json = Json.write(report);
        if (target != null && report.backupId() != null) {
            try {
                target.put(ArchiveLayout.report(report.backupId()), json);
            } catch (IOException e) {
                log.println("cairn backup: cannot write the report into the target: " + e.getMessage());
            }
        }
        try {
            if (o.report != null) {
                Files.write(o.report, json);
            }
            if (o.metricsFile != null) {
                MetricsFile.write(o.metricsFile, report, finished);
            }
        } catch (IOException e) {
            log.println("cairn backup: cannot write the report or metrics file: " + e.getMessage());
            exit = ExitCode.FAILED;
        }
        return exit;
    }
}
