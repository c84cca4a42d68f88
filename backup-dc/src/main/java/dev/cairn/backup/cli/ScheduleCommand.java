package dev.cairn.backup.cli;

import dev.cairn.backup.Main;
import dev.cairn.backup.schedule.Cron;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZonedDateTime;
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
    Main main;

    @Option(names = "--cron", required = true, description = "e.g. \"0 3 * * *\": every day at 03:00")
    String cron;

    @Mixin
    RunOptions options;

    @Override
    public Integer call() throws Exception {
        Cron schedule = Cron.parse(cron);
        ZoneId zone = ZoneId.systemDefault();
        while (!Thread.currentThread().isInterrupted()) {
            ZonedDateTime next = schedule.next(ZonedDateTime.now(zone));
            System.err.println("schedule '" + schedule + "': next run at " + next);
            long wait = Duration.between(ZonedDateTime.now(zone), next).toMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            int exit = BackupJob.runOnce(main, options, System.err);
            System.err.println("schedule: run ended with exit code " + exit
                    + (exit == Main.EXIT_LOCKED ? " (another run holds the lock; this firing is skipped)" : ""));
        }
        return Main.EXIT_OK;
    }
}
