package dev.cairn.engine.internal;

import dev.cairn.engine.WriteBatch;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;

/**
 * The queue in front of the write thread. Callers block until the write thread has made their
 * request durable (group commit: the thread takes every batch waiting and syncs once for all).
 * Tasks (manifest edits that must not interleave with writes, syncs, checkpoints) run on the
 * write thread in queue order. Thread-safe.
 */
final class WriteQueue {
    abstract static sealed class Request permits BatchRequest, RelocateRequest, TaskRequest {
        final CompletableFuture<Object> done = new CompletableFuture<>();

        void complete(Object result) {
            done.complete(result);
        }

        void fail(Throwable t) {
            done.completeExceptionally(t);
        }

        abstract long bytes();
    }

    static final class BatchRequest extends Request {
        private final WriteBatch batch;
        private final long bytes;

        BatchRequest(WriteBatch batch) {
            this.batch = batch;
            long b = 0;
            for (WriteBatch.Op op : batch.ops()) {
                b += op.key().length + (op.value() == null ? 0 : op.value().length);
            }
            this.bytes = b;
        }

        WriteBatch batch() {
            return batch;
        }

        @Override
        long bytes() {
            return bytes;
        }
    }

    static final class RelocateRequest extends Request {
        private final List<Relocation> relocations;

        RelocateRequest(List<Relocation> relocations) {
            this.relocations = relocations;
        }

        List<Relocation> relocations() {
            return relocations;
        }

        @Override
        long bytes() {
            return 0;
        }
    }

    interface Task {
        Object call() throws IOException;
    }

    static final class TaskRequest extends Request {
        private final Task task;

        TaskRequest(Task task) {
            this.task = task;
        }

        void run() {
            try {
                complete(task.call());
            } catch (Throwable t) {
                fail(t);
            }
        }

        @Override
        long bytes() {
            return 0;
        }
    }

    /** Put in the queue by {@link #close()} to wake the write thread at once; never handed out. */
    private final Request wakeUp = new TaskRequest(() -> null);
    private final LinkedBlockingDeque<Request> queue = new LinkedBlockingDeque<>();
    private volatile boolean closed;

    void submitBatch(WriteBatch batch) throws IOException {
        await(enqueue(new BatchRequest(batch)));
    }

    Object submitTask(Task task) throws IOException {
        return await(enqueue(new TaskRequest(task)));
    }

    void submitRelocations(List<Relocation> relocations) throws IOException {
        await(enqueue(new RelocateRequest(relocations)));
    }

    private Request enqueue(Request r) throws IOException {
        if (closed) {
            throw new IOException("engine is closed");
        }
        queue.add(r);
        if (closed && queue.remove(r)) {
            throw new IOException("engine is closed");
        }
        return r;
    }

    private static Object await(Request r) throws IOException {
        return Futures.await(r.done, "the write thread");
    }

    /** The next request; null once closed and drained. */
    Request take(boolean ignored) throws InterruptedException {
        while (true) {
            if (closed && (queue.isEmpty() || queue.peek() == wakeUp)) {
                return null;
            }
            Request r = queue.poll(50, TimeUnit.MILLISECONDS);
            if (r != null && r != wakeUp) {
                return r;
            }
        }
    }

    /** Moves waiting batches (only batches, in order) into {@code group}, up to the bounds. */
    void drainBatchesInto(List<Request> group, int maxOps, long maxBytes) {
        long bytes = 0;
        int ops = 0;
        for (Request r : group) {
            bytes += r.bytes();
            ops += r instanceof BatchRequest b ? b.batch().size() : 0;
        }
        while (ops < maxOps && bytes < maxBytes) {
            Request next = queue.peek();
            if (!(next instanceof BatchRequest b)) {
                return;
            }
            if (queue.poll() != next) {
                return;
            }
            group.add(next);
            ops += b.batch().size();
            bytes += next.bytes();
        }
    }

    /** Refuses new requests; those already queued still run. */
    void close() {
        closed = true;
        queue.add(wakeUp);
    }
}
