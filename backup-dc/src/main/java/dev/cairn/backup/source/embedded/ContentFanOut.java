package dev.cairn.backup.source.embedded;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.store.embedded.ScanPriority;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a content scan on a reading thread of its own and hands the content to worker threads
 * that call the sink, so that reading goes on while others hash and write. Content comes in
 * batches of up to {@link #BATCH_BYTES} in buffers that are reused: a few hundred hand-overs for
 * gigabytes of small content instead of one per content. The source reads each run of
 * neighbouring contents straight into such a buffer ({@link BackupSource.ContentSink#spanBuffer}),
 * which then goes to a worker as it is, without a copy; content that comes otherwise is copied
 * into a batch. The source may ask for the buffers of up to {@link #SPANS_READ_AHEAD} more spans
 * before it visits the first (it reads ahead); spans are visited in the order asked. At most
 * {@code 2 × workers + SPANS_READ_AHEAD + 1} batches are in flight; the reader waits for a free one. Every
 * one of these threads runs at the scan's {@link ScanPriority}; the caller's thread keeps its own. The first failure stops the reading and is thrown once the
 * workers are done. With no workers, the reading thread calls the sink itself on the engine's
 * buffer.
 */
final class ContentFanOut {
    /** Bytes of content handed to a worker at once (a content at least this long goes alone). */
    static final int BATCH_BYTES = 4 << 20;
    /** Spans a scan around the page cache reads ahead of the one visited, each into a batch buffer of ours. */
    static final int SPANS_READ_AHEAD = 2;

    /** The scan: calls its argument for each content, from one thread. */
    @FunctionalInterface
    interface Scan {
        void run(BackupSource.ContentSink reading) throws IOException;
    }

    private record Entry(String sha256, int offset, int length) {
    }

    private ContentFanOut() {
    }

    static void run(int workers, ScanPriority priority, Scan scan, BackupSource.ContentSink sink) throws IOException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ExecutorService pool = workers == 0 ? null : Executors.newFixedThreadPool(workers, threadsAt(priority));
        Thread reader = new Thread(() -> {
            try {
                priority.applyToCurrentThread();
                if (pool == null) {
                    scan.run(sink);
                } else {
                    Batches batches = new Batches(pool, 2 * workers + SPANS_READ_AHEAD + 1, sink, failure);
                    scan.run(batches);
                    batches.handOver();
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, "content-read");
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
            awaitEnd(reader, pool);
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

    /** After an interrupt: returns once the reader and the workers stopped, so that nothing writes after the run. */
    private static void awaitEnd(Thread reader, ExecutorService pool) {
        boolean ended = false;
        while (!ended) {
            try {
                reader.join();
                ended = pool == null || pool.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException again) {
                // keep waiting: the caller is told of the interrupt once they ended
            }
        }
    }

    private static java.util.concurrent.ThreadFactory threadsAt(ScanPriority priority) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(() -> {
                priority.applyToCurrentThread();
                r.run();
            }, "content-hash-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The reading thread's side: fills a batch, hands it to a worker, takes a free buffer. Not thread-safe. */
    private static final class Batches implements BackupSource.ContentSink {
        private final ExecutorService pool;
        private final BlockingQueue<byte[]> free;
        private final BackupSource.ContentSink sink;
        private final AtomicReference<Throwable> failure;
        private byte[] buffer;
        private int used;
        private List<Entry> entries = new ArrayList<>();
        /** Spans whose buffers the source asked for and has not finished visiting, oldest first (it reads ahead). */
        private final ArrayDeque<SpanBatch> spans = new ArrayDeque<>();

        private record SpanBatch(byte[] buffer, List<Entry> entries) {
        }

        Batches(ExecutorService pool, int buffers, BackupSource.ContentSink sink, AtomicReference<Throwable> failure) {
            this.pool = pool;
            this.free = new ArrayBlockingQueue<>(buffers);
            for (int i = 0; i < buffers; i++) {
                free.add(new byte[BATCH_BYTES]);
            }
            this.sink = sink;
            this.failure = failure;
        }

        private void checkNoFailure() throws IOException {
            if (failure.get() != null) {
                throw new IOException("stopped: a content could not be copied");
            }
        }

        private byte[] takeFree() throws IOException {
            try {
                return free.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("content scan stopped");
            }
        }

        /** A span the source reads into a batch of its own, whose contents are then recorded where they lie. */
        @Override
        public byte[] spanBuffer(int length) throws IOException {
            checkNoFailure();
            if (length > BATCH_BYTES) {
                return null;
            }
            SpanBatch span = new SpanBatch(takeFree(), new ArrayList<>());
            spans.addLast(span);
            return span.buffer();
        }

        @Override
        public void spanVisited() {
            SpanBatch span = spans.pollFirst();
            if (span == null) {
                throw new IllegalStateException("a span visited that was never asked for");
            }
            if (span.entries().isEmpty()) {
                free.add(span.buffer());
            } else {
                submit(span.buffer(), span.entries(), true);
            }
        }

        @Override
        public void accept(String sha256, byte[] bytes, int offset, int length) throws IOException {
            checkNoFailure();
            SpanBatch span = spans.peekFirst();
            if (span != null && bytes == span.buffer()) {
                span.entries().add(new Entry(sha256, offset, length));
                return;
            }
            if (length >= BATCH_BYTES) {
                handOver();
                byte[] alone = java.util.Arrays.copyOfRange(bytes, offset, offset + length);
                submit(alone, List.of(new Entry(sha256, 0, length)), false);
                return;
            }
            if (buffer == null || used + length > buffer.length) {
                handOver();
                buffer = takeFree();
            }
            System.arraycopy(bytes, offset, buffer, used, length);
            entries.add(new Entry(sha256, used, length));
            used += length;
        }

        /** Hands the batch being filled to a worker, or its buffer back to the free ones when it holds nothing. */
        void handOver() {
            if (buffer == null) {
                return;
            }
            if (entries.isEmpty()) {
                free.add(buffer);
            } else {
                submit(buffer, entries, true);
                entries = new ArrayList<>();
            }
            buffer = null;
            used = 0;
        }

        private void submit(byte[] bytes, List<Entry> batch, boolean pooled) {
            pool.execute(() -> {
                try {
                    for (Entry e : batch) {
                        if (failure.get() != null) {
                            break;
                        }
                        sink.accept(e.sha256(), bytes, e.offset(), e.length());
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    if (pooled) {
                        free.add(bytes);
                    }
                }
            });
        }
    }
}
