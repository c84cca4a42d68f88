package dev.cairn.backup.cli;

import dev.cairn.backup.time.JobClock;

/**
 * What the commands take from the process that runs them, so that they need not know its entry
 * point: the sources a run opens and the clock the job goes by. Picocli injects it as the
 * parent command.
 */
public interface JobEnvironment {
    SourceFactory sources();

    /**
     * The time the commands go by — a schedule's firings, a run's ids, leases and checkpoints, what
     * prune removes: the system's, in the JVM's time zone, except in tests.
     */
    JobClock clock();
}
