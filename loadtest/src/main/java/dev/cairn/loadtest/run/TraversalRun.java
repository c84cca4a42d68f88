package dev.cairn.loadtest.run;

import dev.cairn.loadtest.targets.TargetException;
import dev.cairn.loadtest.targets.TraversalSource;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * A backup-like traversal: one thread lists every object, {@code readers} threads read each
 * whole. It runs once, until everything is read or it is stopped.
 *
 * <p>Thread-safety: {@link #start} and {@link #stopAndJoin} from the run's thread; counters
 * readable from any thread.
 */
final class TraversalRun {

    private static final String END = "\u0000end";

    private final TraversalSource source;
    private final int readers;
    private final BlockingQueue<String> queue = new ArrayBlockingQueue<>(4096);
    private final LongAdder objects = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder intervalObjects = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> errors = new ConcurrentHashMap<>();
    private final Thread[] threads;
    private volatile boolean stop;
    private volatile long startedNanos;
    private volatile long endedNanos;
    private volatile boolean completed;
    private final LongAdder readersDone = new LongAdder();

    TraversalRun(TraversalSource source, int readers) {
        this.source = source;
        this.readers = readers;
        this.threads = new Thread[readers + 1];
    }

    void start() {
        startedNanos = System.nanoTime();
        threads[0] = new Thread(this::list, "traversal-list");
        for (int i = 1; i <= readers; i++) {
            threads[i] = new Thread(this::read, "traversal-read-" + i);
        }
        for (Thread t : threads) {
            t.setDaemon(true);
            t.start();
        }
    }

    private void list() {
        try {
            source.list(name -> offer(name));
        } catch (TargetException e) {
            errors.computeIfAbsent("list-" + e.kind(), k -> new LongAdder()).increment();
        } finally {
            for (int i = 0; i < readers; i++) {
                offer(END);
            }
        }
    }

    private boolean offer(String name) {
        try {
            while (!stop) {
                if (queue.offer(name, 50, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private void read() {
        try {
            while (!stop) {
                String name = queue.poll(50, TimeUnit.MILLISECONDS);
                if (name == null) {
                    continue;
                }
                if (name.equals(END)) {
                    break;
                }
                try {
                    bytes.add(source.read(name));
                    objects.increment();
                    intervalObjects.increment();
                } catch (TargetException e) {
                    errors.computeIfAbsent(e.kind(), k -> new LongAdder()).increment();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            readersDone.increment();
            if (readersDone.sum() == readers) {
                completed = !stop;
                endedNanos = System.nanoTime();
            }
        }
    }

    /** Stops a traversal still running and waits for its threads. */
    void stopAndJoin() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            if (t != null) {
                t.join();
            }
        }
        if (endedNanos == 0) {
            endedNanos = System.nanoTime();
        }
    }

    boolean started() {
        return startedNanos != 0;
    }

    long startedNanos() {
        return startedNanos;
    }

    /** When it ended, or 0 while it runs. */
    long endedNanos() {
        return endedNanos;
    }

    boolean completed() {
        return completed;
    }

    long objects() {
        return objects.sum();
    }

    long bytes() {
        return bytes.sum();
    }

    long takeIntervalObjects() {
        return intervalObjects.sumThenReset();
    }

    Map<String, Long> errors() {
        Map<String, Long> out = new TreeMap<>();
        errors.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }
}
