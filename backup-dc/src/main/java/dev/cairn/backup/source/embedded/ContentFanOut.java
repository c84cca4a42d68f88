package dev.cairn.backup.source.embedded;

import dev.cairn.backup.source.BackupSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a content scan on a reading thread of its own and hands each content to worker threads
 * that call the sink, so that reading goes on while others hash and write (and wait for a pack's
 * sync). Each content is copied out of the engine's buffer; at most {@link #WAITING_BYTES} wait
 * at once. With {@code idle}, every one of these threads runs at idle I/O and CPU priority
 * ({@link IdleIo}); the caller's thread keeps its own. The first failure stops the reading and
 * is thrown once the workers are done.
 */
final class ContentFanOut {
    /** Bytes read but not yet handed to the sink, at most. */
    static final int WAITING_BYTES = 32 << 20;

    /** The scan: calls its argument for each content, from one thread. */
    @FunctionalInterface
    interface Scan {
        void run(BackupSource.ContentSink reading) throws IOException;
    }

    private ContentFanOut() {
    }

    /** With no workers the reading thread calls the sink itself, on the engine's buffer. */
    static void run(int workers, boolean idle, Scan scan, BackupSource.ContentSink sink) throws IOException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Semaphore waiting = new Semaphore(WAITING_BYTES);
        AtomicInteger n = new AtomicInteger();
        ExecutorService pool = workers == 0 ? null : Executors.newFixedThreadPool(workers, r -> {
            Thread t = new Thread(() -> {
                if (idle) {
                    IdleIo.applyToCurrentThread();
                }
                r.run();
            }, "checkpoint-content-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        Thread reader = new Thread(() -> {
            try {
                if (idle) {
                    IdleIo.applyToCurrentThread();
                }
                if (pool == null) {
                    scan.run(sink);
                    return;
                }
                scan.run((sha256, buffer, offset, length) -> {
                    if (failure.get() != null) {
                        throw new IOException("stopped: a content could not be copied");
                    }
                    try {
                        waiting.acquire(length);
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException("content scan stopped");
                    }
                    byte[] copy = Arrays.copyOfRange(buffer, offset, offset + length);
                    pool.execute(() -> {
                        try {
                            if (failure.get() == null) {
                                sink.accept(sha256, copy, 0, length);
                            }
                        } catch (Throwable t) {
                            failure.compareAndSet(null, t);
                        } finally {
                            waiting.release(length);
                        }
                    });
                });
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, "checkpoint-content-read");
        reader.setDaemon(true);
        reader.start();
        try {
            reader.join();
            if (pool != null) {
                pool.shutdown();
                while (!pool.awaitTermination(1, TimeUnit.MINUTES)) {
                    // workers still writing; a stuck target fails them with its own error
                }
            }
        } catch (InterruptedException e) {
            reader.interrupt();
            if (pool != null) {
                pool.shutdownNow();
            }
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading content");
        }
        Throwable t = failure.get();
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error err) {
            throw err;
        }
        if (t != null) {
            throw new IOException(t);
        }
    }
}
