package dev.cairn.backup.run;

import java.time.Duration;

/**
 * How a backup run works; defaults in {@link dev.cairn.backup.cli.RunOptions}.
 *
 * @param splitsInFlight     splits scanned at once
 * @param copyThreads        blobs copied at once
 * @param checkpointRows     a split records its progress after this many rows
 * @param checkpointInterval ... or after this long, whichever comes first
 * @param leaseDuration      how long the archive lock stays valid without renewal
 */
public record RunSettings(int splitsInFlight, int copyThreads, int checkpointRows, Duration checkpointInterval,
                          Duration leaseDuration) {
    public RunSettings {
        if (splitsInFlight < 1 || copyThreads < 1 || checkpointRows < 1) {
            throw new IllegalArgumentException("splits in flight, copy threads and checkpoint rows must be at least 1");
        }
    }
}
