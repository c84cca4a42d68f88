package dev.cairn.backup.run;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * The content phase ({@link BlobCopier#copyAhead}) on a thread of its own, so that the rows can
 * be scanned meanwhile on the other core: a row's copy and every checkpoint wait for it
 * ({@link #await}), since only once it is over do the archive's blob locations say which blobs it
 * copied. Until then the splits hold their rows in memory, at most {@link #ROWS_HELD} of them
 * in all ({@link #rowsHeldPerSplit}), and record them afterwards a checkpoint's worth at a time.
 * Thread-safe.
 */
final class ContentPhase {
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
        Await.result(done, "the content phase");
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
