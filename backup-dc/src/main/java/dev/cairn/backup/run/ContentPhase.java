package dev.cairn.backup.run;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The content phase ({@link BlobCopier#copyAhead}) on a thread of its own, so that the rows can
 * be scanned meanwhile on the other core: a row's copy and every checkpoint wait for it
 * ({@link #await}), since only once it is over do the archive's blob locations say which blobs it
 * copied. Until then the splits hold their rows in memory, at most {@link #ROWS_HELD} of them
 * in all ({@link #rowsHeldPerSplit}). Thread-safe.
 */
final class ContentPhase {
    /**
     * The system property that lets the rows be scanned while the content phase runs; default
     * false: the rows start once it ended. With it on, no split checkpoint is written before the
     * phase ends and the held rows are then recorded in one chunk per split, which KillResumeTest's
     * kill once four row chunks are durable does not yet allow for.
     */
    public static final String OVERLAP_PROPERTY = "cairn.backup.rowsDuringContentPhase";

    /**
     * Rows the splits scan ahead of the content phase, in all, before they wait for it (a few
     * hundred bytes each in memory): most of a 100,000-object store.
     */
    static final int ROWS_HELD = 80_000;

    /** Rows each of {@code splitsInFlight} splits may hold; never fewer than a checkpoint's. */
    static int rowsHeldPerSplit(int splitsInFlight, int checkpointRows) {
        return Math.max(checkpointRows, ROWS_HELD / splitsInFlight);
    }

    /** The copy-ahead to run, which may throw. */
    @FunctionalInterface
    interface Copy {
        void run() throws Exception;
    }

    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final Thread thread;

    private ContentPhase(Copy copy) {
        thread = new Thread(() -> {
            try {
                copy.run();
                done.complete(null);
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        }, "content-phase");
        thread.setDaemon(true);
    }

    static ContentPhase start(Copy copy) {
        ContentPhase phase = new ContentPhase(copy);
        phase.thread.start();
        return phase;
    }

    boolean isDone() {
        return done.isDone();
    }

    /** Waits for the phase to end; throws its failure (an {@link IOException} as itself). */
    void await() throws IOException {
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the content phase ran");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException(cause);
        }
    }

    /** The phase's failure, or null when it is still running or succeeded. */
    Throwable failure() {
        if (!done.isCompletedExceptionally()) {
            return null;
        }
        try {
            done.join();
            return null;
        } catch (java.util.concurrent.CompletionException e) {
            return e.getCause();
        } catch (java.util.concurrent.CancellationException e) {
            return e;
        }
    }

    /** Stops the phase if it still runs and returns once its thread (and so its workers) ended. */
    void stop() {
        thread.interrupt();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
