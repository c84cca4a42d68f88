package dev.cairn.engine.internal;

import dev.cairn.engine.Snapshot;
import java.util.concurrent.atomic.AtomicBoolean;

/** A registered read sequence; compaction keeps every version it can see until it is closed. */
final class SnapshotImpl implements Snapshot {
    private final long sequence;
    private final SnapshotList owner;
    private final AtomicBoolean closed = new AtomicBoolean();

    SnapshotImpl(long sequence, SnapshotList owner) {
        this.sequence = sequence;
        this.owner = owner;
    }

    @Override
    public long sequence() {
        return sequence;
    }

    boolean belongsTo(SnapshotList list) {
        return owner == list;
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            owner.release(sequence);
        }
    }
}
