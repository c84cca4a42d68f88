package dev.cairn.backup.cli;

import dev.cairn.backup.report.MetricsFile;
import java.io.IOException;
import dev.cairn.backup.schedule.Cron;
import dev.cairn.backup.schedule.Scheduler;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code backup schedule}: runs {@code backup run} with the same options at each time the cron
 * expression names, in the JVM's time zone, until stopped. One run at a time per archive, by the
 * archive's lock: a firing while another run (from this or any other scheduler, or a Kubernetes
 * CronJob running {@code backup run}) holds it is skipped.
 */
@Command(name = "schedule", mixinStandardHelpOptions = true,
        description = "Run backups on a cron schedule (5 fields, the JVM's time zone; TZ=UTC in containers) until stopped.")
public final class ScheduleCommand implements Callable<Integer> {
    @ParentCommand
    JobEnvironment environment;

    @Option(names = "--cron", required = true, description = "e.g. \"0 3 * * *\": every day at 03:00")
    String cron;

    @Option(names = "--max-runs", defaultValue = "0",
            description = "stop after this many firings, exiting with the last run's code; 0: run until stopped (default: ${DEFAULT-VALUE})")
    int maxRuns;

    @Mixin
    RunOptions options;

    @Override
    public Integer call() throws Exception {
        if (maxRuns < 0) {
            throw new IllegalArgumentException("--max-runs must not be negative");
        }
        Cron schedule = Cron.parse(cron);
        try {
            BackupJob.checkBeforeFirstRun(environment, options);
        } catch (IOException e) {
            System.err.println("schedule: not started: " + ExitCode.message(e));
            return ExitCode.FAILED;
        }
        Scheduler scheduler = new Scheduler(schedule, environment.clock(), System.err, next -> {
            if (options.metricsFile != null) {
                try {
                    MetricsFile.writeNextRun(options.metricsFile, next.toInstant().toEpochMilli());
                } catch (IOException e) {
                    System.err.println("schedule: cannot write " + options.metricsFile + ": " + e.getMessage());
                }
            }
        });
        return scheduler.run(() -> {
            int exit = BackupJob.runOnce(environment, options, System.err);
            if (exit == ExitCode.LOCKED) {
                System.err.println("schedule: another run holds the lock; this firing is skipped");
            }
            return exit;
        }, maxRuns);
    }
}
