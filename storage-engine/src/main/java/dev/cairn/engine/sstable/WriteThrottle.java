package dev.cairn.engine.sstable;

import java.io.InterruptedIOException;

/**
 * Paces the bytes an {@link SSTableWriter} appends, so that background compaction leaves the
 * device to foreground work. Implementations must be thread-safe: several writers may share one.
 */
@FunctionalInterface
public interface WriteThrottle {

    /** No pacing: flushes use it, since a stalled flush stalls writes. */
    WriteThrottle NONE = bytes -> {
    };

    /**
     * Blocks until {@code bytes} more may be written.
     *
     * @throws InterruptedIOException if the thread is interrupted while waiting; its interrupt
     *                                status is set again
     */
    void acquire(int bytes) throws InterruptedIOException;
}
