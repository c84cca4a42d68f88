package dev.cairn.backup.schedule;

import java.io.PrintStream;
import dev.cairn.backup.time.JobClock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.function.Consumer;
import java.util.function.IntSupplier;

/**
 * Fires a job at each time a cron expression names, by a clock (the system's in production; a
 * shifted one in tests, so that a firing comes within seconds). It waits for each run to end
 * before computing the next firing, so firings that pass during a long run are skipped, never
 * queued. Exclusion between schedulers is the job's business (the archive's lock).
 */
public final class Scheduler {
    /** The longest single sleep: a clock that jumps (suspend, NTP) is looked at again this often. */
    static final Duration MAX_SLEEP = Duration.ofSeconds(30);

    private final Cron cron;
    private final JobClock clock;
    private final PrintStream log;
    private final Consumer<ZonedDateTime> planned;

    /** @param planned told each next firing as soon as it is known (the metrics file records it) */
    public Scheduler(Cron cron, JobClock clock, PrintStream log, Consumer<ZonedDateTime> planned) {
        this.cron = cron;
        this.clock = clock;
        this.log = log;
        this.planned = planned;
    }

    /**
     * Runs {@code job} at each firing, {@code maxRuns} times (0: until interrupted), and returns the
     * exit code of the last run (0 when none ran).
     */
    public int run(IntSupplier job, int maxRuns) throws InterruptedException {
        int last = 0;
        for (int runs = 0; maxRuns == 0 || runs < maxRuns; runs++) {
            ZonedDateTime next = cron.next(clock.now());
            log.println("schedule '" + cron + "': next run at " + next);
            planned.accept(next);
            sleepUntil(next);
            last = job.getAsInt();
            log.println("schedule: run ended with exit code " + last);
        }
        return last;
    }

    private void sleepUntil(ZonedDateTime when) throws InterruptedException {
        while (true) {
            long wait = Duration.between(clock.now(), when).toMillis();
            if (wait <= 0) {
                return;
            }
            clock.sleep(Duration.ofMillis(Math.min(wait, MAX_SLEEP.toMillis())));
        }
    }
}
