package dev.cairn.loadtest.run;

import dev.cairn.loadtest.dataset.Dataset;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The keys a run can pick: the loaded ones (from the key registry) and those its inserts add.
 * An insert claims the next index; the count that choosers see grows only over inserts that
 * have finished, in index order (YCSB's acknowledged counter), so a read never picks a key
 * whose insert is still in flight. A key whose insert failed is never picked: it may or may not
 * exist (a write can fail after the store applied it), so neither a read's 404 nor its 200 would
 * say anything about the store.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class KeySpace {

    private final String[] loaded;
    private final Dataset dataset;
    private final AtomicLong nextInsert;
    private final ConcurrentSkipListSet<Long> finished = new ConcurrentSkipListSet<>();
    private final Set<Long> failed = ConcurrentHashMap.newKeySet();
    private volatile long acknowledged;

    KeySpace(String[] loaded, Dataset dataset) {
        this.loaded = loaded;
        this.dataset = dataset;
        this.nextInsert = new AtomicLong(loaded.length);
        this.acknowledged = loaded.length;
    }

    /** Keys that may be picked: the loaded ones and every insert finished in order. */
    long count() {
        return acknowledged;
    }

    int loadedCount() {
        return loaded.length;
    }

    String key(long index) {
        return index < loaded.length ? loaded[(int) index] : dataset.key(index);
    }

    long claimInsert() {
        return nextInsert.getAndIncrement();
    }

    /** Whether {@code index} is a key whose insert failed. */
    boolean failed(long index) {
        return !failed.isEmpty() && failed.contains(index);
    }

    /** Marks insert {@code index} finished, successfully or not. */
    void finishInsert(long index, boolean succeeded) {
        if (!succeeded) {
            failed.add(index);
        }
        finished.add(index);
        synchronized (this) {
            long a = acknowledged;
            while (finished.remove(a)) {
                a++;
            }
            acknowledged = a;
        }
    }
}
