package dev.cairn.store.cassandra;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs the bookkeeping that follows an acknowledged write — releasing the writes it superseded
 * and reclaiming their content — after the write is answered. A bounded queue: when it is full
 * the writer settles itself (back-pressure, never an unbounded backlog). Bookkeeping that fails
 * or is lost with the process leaves references behind, never removes one that is needed: the
 * next write or delete of the key releases them (docs/cassandra.md, "Why references stay exact
 * without counters"). Thread-safe.
 */
final class Settler implements AutoCloseable {
    private static final int THREADS = 2;
    private static final int QUEUE = 512;

    private final ThreadPoolExecutor pool = new ThreadPoolExecutor(THREADS, THREADS, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUE), r -> {
                Thread t = new Thread(r, "cairn-cassandra-settle");
                t.setDaemon(true);
                return t;
            }, new ThreadPoolExecutor.CallerRunsPolicy());
    private final Object lock = new Object();
    private long pending;

    Settler() {
        pool.allowCoreThreadTimeOut(true);
    }

    void submit(Runnable settle) {
        synchronized (lock) {
            pending++;
        }
        pool.execute(() -> {
            try {
                settle.run();
            } catch (RuntimeException e) {
                // Left for the next write or delete of the key to release (see the class comment).
            } finally {
                synchronized (lock) {
                    pending--;
                    lock.notifyAll();
                }
            }
        });
    }

    /** Waits until every write answered so far is settled. */
    void awaitSettled() throws InterruptedException {
        synchronized (lock) {
            while (pending > 0) {
                lock.wait();
            }
        }
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
