package dev.cairn.engine.internal;

import dev.cairn.engine.fs.ThreadPriority;
import dev.cairn.engine.vlog.ValueFileReader;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The spans of a storage-order scan around the page cache, read by a thread of their own up to
 * {@link #SPANS_AHEAD} spans ahead of the one being visited, so that the device always has the
 * next read while the scanning thread checks and hands on the last: a read around the page cache
 * has no kernel read-ahead, and one read at a time left the device idle between reads. The
 * reading thread takes the idle classes of the thread that made this ({@link ThreadPriority}), so
 * a scan started at idle priority reads at idle priority. Value files are opened by that thread,
 * one at a time (spans come file by file), the last closed by {@link #close}.
 *
 * <p>Buffers: each span's buffer is asked for when its read is issued, in span order; at most
 * {@code SPANS_AHEAD + 1} are out at once, and no read writes into a buffer after
 * {@link #readAll} returns or throws. Not thread-safe: one scan, one thread.
 */
final class SpanReadAhead implements AutoCloseable {
    /** Spans read ahead of the one being visited. */
    static final int SPANS_AHEAD = 2;

    /** The visitor's buffer for a span, or null for one of the scan's own. */
    @FunctionalInterface
    interface Buffers {
        byte[] forSpan(StorageOrderScan.Span span) throws IOException;
    }

    /** Checks and visits a span once its bytes are in. */
    @FunctionalInterface
    interface Visit {
        void span(StorageOrderScan.Span span, byte[] bytes, boolean supplied) throws IOException;
    }

    private record Pending(StorageOrderScan.Span span, byte[] bytes, boolean supplied, Future<?> read) {
    }

    private final ValueStore values;
    private final int spanBytes;
    private final boolean idle;
    private final byte[][] own = new byte[SPANS_AHEAD + 1][];
    private int nextOwn;
    private ExecutorService reading;
    /** The reader of the file being read; the reading thread's alone. */
    private ValueFileReader reader;

    SpanReadAhead(ValueStore values, int spanBytes) {
        this.values = values;
        this.spanBytes = spanBytes;
        this.idle = ThreadPriority.currentThreadIsIdle();
    }

    /** Reads {@code spans} in order, each one visited once read, in order. */
    void readAll(List<StorageOrderScan.Span> spans, Buffers buffers, Visit visit) throws IOException {
        ArrayDeque<Pending> pending = new ArrayDeque<>();
        int next = 0;
        try {
            while (true) {
                while (next < spans.size() && pending.size() <= SPANS_AHEAD) {
                    StorageOrderScan.Span span = spans.get(next++);
                    byte[] supplied = buffers.forSpan(span);
                    byte[] bytes = supplied != null ? supplied : ownBuffer(span.length());
                    pending.add(new Pending(span, bytes, supplied != null, submit(span, bytes)));
                }
                Pending p = pending.poll();
                if (p == null) {
                    return;
                }
                await(p.read());
                visit.span(p.span(), p.bytes(), p.supplied());
            }
        } finally {
            for (Pending p : pending) {
                awaitQuietly(p.read());
            }
        }
    }

    /** One of the scan's own buffers, in turn: at most {@code SPANS_AHEAD + 1} spans are out, so the one handed out again is done. */
    private byte[] ownBuffer(int length) {
        if (length > spanBytes) {
            return new byte[length]; // a single long value; not kept
        }
        int i = nextOwn;
        nextOwn = (nextOwn + 1) % own.length;
        if (own[i] == null) {
            own[i] = new byte[spanBytes];
        }
        return own[i];
    }

    private Future<?> submit(StorageOrderScan.Span span, byte[] bytes) {
        if (reading == null) {
            reading = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(() -> {
                    if (idle) {
                        ThreadPriority.idleCurrentThread();
                    }
                    r.run();
                }, "storage-order-read");
                t.setDaemon(true);
                return t;
            });
        }
        return reading.submit(() -> {
            readerOf(span.fileNumber()).readSpan(span.start(), bytes, span.length());
            return null;
        });
    }

    private ValueFileReader readerOf(long fileNumber) throws IOException {
        if (reader == null || reader.fileNumber() != fileNumber) {
            closeReader();
            reader = values.openAroundPageCache(fileNumber);
        }
        return reader;
    }

    private void closeReader() throws IOException {
        ValueFileReader r = reader;
        reader = null;
        if (r != null) {
            r.close();
        }
    }

    private static void await(Future<?> read) throws IOException {
        try {
            read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("storage-order scan interrupted while reading");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof UncheckedIOException u) {
                throw u.getCause();
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

    /** Waits for a read to end, however it ends, also when interrupted (a read is short): its buffer is then free. */
    private static void awaitQuietly(Future<?> read) {
        boolean interrupted = false;
        while (true) {
            try {
                read.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException | java.util.concurrent.CancellationException e) {
                break;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Closes the reading thread's reader and ends the thread. */
    @Override
    public void close() throws IOException {
        if (reading == null) {
            return;
        }
        Future<?> closing = reading.submit(() -> {
            closeReader();
            return null;
        });
        reading.shutdown();
        awaitQuietly(closing);
        await(closing); // done: reports the close's own failure, if any
    }
}
