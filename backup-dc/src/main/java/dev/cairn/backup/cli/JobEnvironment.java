package dev.cairn.backup.cli;

import java.time.Clock;

/**
 * What the commands take from the process that runs them, so that they need not know its entry
 * point: the sources a run opens and the clock a schedule fires by. Picocli injects it as the
 * parent command.
 */
public interface JobEnvironment {
    SourceFactory sources();

    /** The clock {@code schedule} fires by: the system's, in the JVM's time zone, except in tests. */
    Clock clock();
}
