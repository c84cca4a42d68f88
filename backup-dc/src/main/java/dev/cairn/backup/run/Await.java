package dev.cairn.backup.run;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Waiting for work handed to another thread of the backup, with its failure rethrown as the
 * caller's own: an {@link IOException}, {@link RuntimeException} or {@link Error} as itself,
 * anything else wrapped in an {@link IOException}; an interrupt as an
 * {@link InterruptedIOException}, the thread's interrupt flag set again.
 */
public final class Await {
    private Await() {
    }

    public static <T> T result(Future<T> future, String what) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for " + what);
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
}
