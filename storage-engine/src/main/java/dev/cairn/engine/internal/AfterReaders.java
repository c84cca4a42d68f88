package dev.cairn.engine.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Work held back until no reader can reach what it drops: value GC's file deletes and the
 * reclaimer's punches. An item waits for every snapshot older than the sequence it was added at,
 * and for every reader of a super version replaced when it was added.
 *
 * <p>Thread-safe: {@link #takeReady} may run on any thread and hands each item to one caller only.
 */
final class AfterReaders<T> {
    private record Waiting<T>(T item, long sequence, long superVersionBound) {
    }

    private final VersionSet versions;
    private final SnapshotList snapshots;
    private final CopyOnWriteArrayList<Waiting<T>> waiting = new CopyOnWriteArrayList<>();

    AfterReaders(VersionSet versions, SnapshotList snapshots) {
        this.versions = versions;
        this.snapshots = snapshots;
    }

    /**
     * Publishes a new super version and holds {@code item} until the readers that could still
     * reach what it drops are gone. {@code sequence}: the visible sequence read after what drops
     * it became durable.
     */
    void add(T item, long sequence) {
        long superVersionBound;
        versions.lock().lock();
        try {
            versions.publishSuperVersion();
            superVersionBound = versions.lastReplacedSuperVersion();
        } finally {
            versions.lock().unlock();
        }
        waiting.add(new Waiting<>(item, sequence, superVersionBound));
    }

    /** Removes and returns the items no reader can reach what they drop any more. */
    List<T> takeReady() {
        if (waiting.isEmpty()) {
            return List.of();
        }
        long oldestSnapshot = snapshots.smallest();
        long oldestLive = versions.oldestLiveSuperVersion();
        List<T> ready = new ArrayList<>();
        for (Waiting<T> w : waiting) {
            if (oldestSnapshot >= w.sequence() && oldestLive > w.superVersionBound() && waiting.remove(w)) {
                ready.add(w.item());
            }
        }
        return ready;
    }

    boolean isEmpty() {
        return waiting.isEmpty();
    }
}
