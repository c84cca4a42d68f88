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
 * that is needed: the next write or delete of the key releases them (docs/cassandra.md, "Why
 * references stay exact without counters"). Thread-safe.
 */
final class Settler implements AutoCloseable {
    private static final int THREADS = 2;
    private static final int QUEUE = 512;

    private final LongAdder settled = new LongAdder();
    private final LongAdder selfSettled = new LongAdder();
    private final LongAdder coalesced = new LongAdder();
    private final LongAdder settleNanos = new LongAdder();
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

    /** What the settling did since the last call (benchmarks print it); resets the counts. */
    Stats takeStats() {
        long max;
        synchronized (lock) {
            max = maxPending;
            maxPending = pending;
        }
        return new Stats(settled.sumThenReset(), selfSettled.sumThenReset(), coalesced.sumThenReset(), max,
                settleNanos.sumThenReset());
    }

    /**
     * Settles run, of which run by the writer itself (queue full), writes that joined a queued
     * settle of their slot, the deepest backlog, time spent settling.
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
