package dev.cairn.loadtest.run;

import dev.cairn.loadtest.dataset.Dataset;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The keys a run can pick: the loaded ones (from the key registry) and those its inserts add.
 * An insert claims the next index; the count that choosers see grows only over inserts that
 * have finished, in index order (YCSB's acknowledged counter), so a read never picks a key
 * whose insert is still in flight.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
final class KeySpace {

    private final String[] loaded;
    private final Dataset dataset;
    private final AtomicLong nextInsert;
    private final ConcurrentSkipListSet<Long> finished = new ConcurrentSkipListSet<>();
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

    /** Marks insert {@code index} finished (successfully or not: a failed one reads as an error). */
    void finishInsert(long index) {
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
