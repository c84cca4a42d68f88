package dev.cairn.store.cassandra;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Runs the bookkeeping that follows an acknowledged write — releasing the writes it superseded
 * and reclaiming their content — after the write is answered. A bounded queue: when it is full
 * the writer settles itself (back-pressure, never an unbounded backlog). Settles of one slot
 * that wait in the queue together run as one ({@link #submit(Object, Object, Consumer)}): a hot
 * key written many times while the queue is long is settled once, not once per write.
 * Bookkeeping that fails or is lost with the process leaves references behind, never removes one
 * that is needed: the next write or delete of the key releases them (docs/cassandra-internals.md, "Why
 * references stay exact without counters"). Thread-safe.
 */
final class Settler implements AutoCloseable {
    /**
     * A settle mostly waits on the cluster (four statements one after another), so threads are
     * cheap next to a backlog that makes writers settle themselves.
     */
    static final int THREADS = 16;
    static final int QUEUE = 512;

    /** Since start, never reset (metrics); {@link #takeStats} reports differences. */
    private final LongAdder settled = new LongAdder();
    private final LongAdder selfSettled = new LongAdder();
    private final LongAdder coalesced = new LongAdder();
    private final LongAdder settleNanos = new LongAdder();
    private Stats taken = new Stats(0, 0, 0, 0, 0);
    private final ThreadPoolExecutor pool;
    private final Object lock = new Object();
    /** Groups of settles queued and not started, by slot; guarded by {@link #lock}. */
    private final Map<Object, Group<?>> queued = new HashMap<>();
    private long pending;
    private long maxPending;

    Settler() {
        this(THREADS, QUEUE);
    }

    Settler(int threads, int queue) {
        pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS, new ArrayBlockingQueue<>(queue), r -> {
            Thread t = new Thread(r, "cairn-cassandra-settle");
            t.setDaemon(true);
            return t;
        }, (r, executor) -> {
            selfSettled.increment();
            if (!executor.isShutdown()) {
                r.run();
            }
        });
        pool.allowCoreThreadTimeOut(true);
    }

    /** A settle of its own, never merged with another. */
    void submit(Runnable settle) {
        synchronized (lock) {
            pending++;
            maxPending = Math.max(maxPending, pending);
        }
        pool.execute(() -> run(settle));
    }

    /**
     * A settle of {@code slot}: when a group of that slot is queued and not started, {@code item}
     * joins it and {@code settle} is not called for it; otherwise a new group is queued, and
     * {@code settle} runs once with every item that joined it before it started, in order.
     */
    <T> void submit(Object slot, T item, Consumer<List<T>> settle) {
        Group<T> group;
        synchronized (lock) {
            @SuppressWarnings("unchecked")
            Group<T> waiting = (Group<T>) queued.get(slot);
            if (waiting != null) {
                waiting.items.add(item);
                coalesced.increment();
                return;
            }
            group = new Group<>();
            group.items.add(item);
            queued.put(slot, group);
            pending++;
            maxPending = Math.max(maxPending, pending);
        }
        Group<T> mine = group;
        pool.execute(() -> run(() -> {
            List<T> items;
            synchronized (lock) {
                queued.remove(slot, mine);
                items = List.copyOf(mine.items);
            }
            settle.accept(items);
        }));
    }

    private static final class Group<T> {
        final List<T> items = new ArrayList<>();
    }

    private void run(Runnable settle) {
        long start = System.nanoTime();
        try {
            settle.run();
        } catch (RuntimeException e) {
            // Left for the next write or delete of the key to release (see the class comment).
        } finally {
            settleNanos.add(System.nanoTime() - start);
            settled.increment();
            synchronized (lock) {
                pending--;
                lock.notifyAll();
            }
        }
    }

    /** Waits until every write answered so far is settled. */
    void awaitSettled() throws InterruptedException {
        synchronized (lock) {
            while (pending > 0) {
                lock.wait();
            }
        }
    }

    /**
     * Forgets every settle queued and not started, as a process that dies loses them; returns how
     * many. For tests of what such a loss leaves behind.
     */
    int loseQueued() {
        List<Runnable> lost = new ArrayList<>();
        pool.getQueue().drainTo(lost);
        synchronized (lock) {
            queued.clear();
            pending -= lost.size();
            lock.notifyAll();
        }
        return lost.size();
    }

    /** What the settling did since the last call (benchmarks print it). */
    Stats takeStats() {
        synchronized (lock) {
            Stats now = totals(maxPending);
            maxPending = pending;
            Stats since = new Stats(now.settled() - taken.settled(), now.selfSettled() - taken.selfSettled(),
                    now.coalesced() - taken.coalesced(), now.maxPending(), now.nanos() - taken.nanos());
            taken = now;
            return since;
        }
    }

    /** The counts since start, {@code maxPending} being the backlog now (metrics). */
    Stats totals() {
        synchronized (lock) {
            return totals(pending);
        }
    }

    private Stats totals(long backlog) {
        return new Stats(settled.sum(), selfSettled.sum(), coalesced.sum(), backlog, settleNanos.sum());
    }

    /**
     * Settles run, of which run by the writer itself (queue full), writes that joined a queued
     * settle of their slot, the backlog (settles queued or running: the deepest one, or the current
     * one for {@link #totals}), time spent settling.
     */
    record Stats(long settled, long selfSettled, long coalesced, long maxPending, long nanos) {
    }

    @Override
    public void close() {
        pool.shutdown();
        try {
            pool.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
