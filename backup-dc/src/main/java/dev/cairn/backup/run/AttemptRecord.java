package dev.cairn.backup.run;

import dev.cairn.backup.archive.ArchiveLayout;
import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Records what one attempt at a run wrote into the archive ({@link RunState.Attempt}) beside the
 * run's state — before each checkpoint records its rows, every checkpoint interval meanwhile (the
 * content phase records no rows) and once more when it ends — so that a run
 * resumed after a kill counts the copies of every attempt ({@link #total}): those of a killed
 * attempt whose rows were not recorded are found present by the next, which copies them no more.
 * A record is written only when the attempt's copies changed since the last one written.
 */
final class AttemptRecord implements AutoCloseable {
    private final Target target;
    private final String name;
    private final Supplier<RunState.Attempt> written;
    private final Lease lease;
    private final ScheduledExecutorService timer;
    private RunState.Attempt recorded;

    AttemptRecord(Target target, String name, Supplier<RunState.Attempt> written, Lease lease, Duration every) {
        this.target = target;
        this.name = name;
        this.written = written;
        this.lease = lease;
        timer = Executors.newSingleThreadScheduledExecutor(BackupRun.daemon("attempt-record"));
        long period = Math.max(1, every.toMillis());
        timer.scheduleWithFixedDelay(this::writeQuietly, period, period, TimeUnit.MILLISECONDS);
    }

    private void writeQuietly() {
        try {
            record();
        } catch (IOException | RuntimeException e) {
            // the next write or the attempt's end records it
        }
    }

    /** Records the attempt's copies now, unless they are those recorded last. */
    synchronized void record() throws IOException {
        RunState.Attempt now = written.get();
        if (!lease.lost() && !now.equals(recorded)) {
            target.put(name, Json.write(now));
            recorded = now;
        }
    }

    /** The copies of every attempt at the run recorded so far. */
    static RunState.Attempt total(Target target, String backupId) throws IOException {
        long blobs = 0;
        long bytes = 0;
        for (Target.Entry e : target.listAll(ArchiveLayout.attempts(backupId))) {
            byte[] json = target.read(e.name());
            if (json != null) {
                RunState.Attempt a = Json.read(json, RunState.Attempt.class, e.name());
                blobs += a.copiedBlobs();
                bytes += a.copiedBytes();
            }
        }
        return new RunState.Attempt(blobs, bytes);
    }

    /** Stops the timer and records the attempt once more. */
    @Override
    public void close() throws IOException {
        timer.shutdownNow();
        try {
            timer.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        record();
    }
}
