package dev.cairn.engine.internal;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Everything a read needs, published as one reference: the active memtable, the frozen ones
 * (newest first) and the SSTable version. Reference counted like {@link Version}.
 */
final class SuperVersion {
    final long id;
    final Memtable mem;
    final List<Memtable> immutables;
    final Version version;
    private final AtomicInteger refs = new AtomicInteger(1);
    private final java.util.function.Consumer<SuperVersion> onDeath;

    SuperVersion(long id, Memtable mem, List<Memtable> immutables, Version version,
                 java.util.function.Consumer<SuperVersion> onDeath) {
        this.id = id;
        this.mem = mem;
        this.immutables = immutables;
        this.version = version;
        this.onDeath = onDeath;
    }

    boolean tryRef() {
        while (true) {
            int r = refs.get();
            if (r <= 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    void unref() {
        if (refs.decrementAndGet() == 0) {
            version.unref();
            onDeath.accept(this);
        }
    }
}
