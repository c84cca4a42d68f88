package dev.cairn.engine.internal;

import java.util.TreeMap;
import java.util.function.LongSupplier;

/** The open snapshots' sequences. Thread-safe (one monitor; snapshots are rare). */
final class SnapshotList {
    private final TreeMap<Long, Integer> open = new TreeMap<>();
    private final LongSupplier latest;
    private final Runnable onRelease;

    SnapshotList(LongSupplier latest, Runnable onRelease) {
        this.latest = latest;
        this.onRelease = onRelease;
    }

    synchronized SnapshotImpl take() {
        long sequence = latest.getAsLong();
        open.merge(sequence, 1, Integer::sum);
        return new SnapshotImpl(sequence, this);
    }

    void release(long sequence) {
        synchronized (this) {
            open.computeIfPresent(sequence, (k, n) -> n == 1 ? null : n - 1);
        }
        onRelease.run();
    }

    /** The oldest sequence any snapshot reads at, or the latest sequence when none is open. */
    synchronized long smallest() {
        long now = latest.getAsLong();
        return open.isEmpty() ? now : Math.min(open.firstKey(), now);
    }

    synchronized int size() {
        return open.values().stream().mapToInt(Integer::intValue).sum();
    }
}
