package dev.cairn.engine.internal;

import java.io.IOException;

/**
 * Whether the engine is closed, and the first failure of background work (flush or compaction),
 * which stops further background work and fails stalled writes.
 *
 * <p>Thread-safe: both fields are volatile; the first recorded failure wins.
 */
final class Lifecycle {
    private static final System.Logger LOG = System.getLogger(Lifecycle.class.getName());

    private volatile boolean closed;
    private volatile IOException backgroundError;

    boolean isClosed() {
        return closed;
    }

    void markClosed() {
        closed = true;
    }

    void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("engine is closed");
        }
    }

    /** The first background failure, or null. */
    IOException backgroundError() {
        return backgroundError;
    }

    /** Records {@code e} unless an earlier failure was recorded, and logs it. */
    void recordBackgroundError(Throwable e) {
        IOException io = e instanceof IOException x ? x : new IOException(e.toString(), e);
        if (backgroundError == null) {
            backgroundError = io;
        }
        LOG.log(System.Logger.Level.ERROR, "background work failed: " + e, e);
    }
}
