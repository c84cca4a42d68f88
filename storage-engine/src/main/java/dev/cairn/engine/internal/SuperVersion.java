package dev.cairn.engine.internal;

import java.util.List;

/**
 * Everything a read needs, published as one reference: the active memtable, the frozen ones
 * (newest first) and the SSTable version. Reference counted like {@link Version}.
 */
final class SuperVersion {
    final long id;
    final Memtable mem;
    final List<Memtable> immutables;
    final Version version;
    private final RefCount refs;

    SuperVersion(long id, Memtable mem, List<Memtable> immutables, Version version,
                 java.util.function.Consumer<SuperVersion> onDeath) {
        this.id = id;
        this.mem = mem;
        this.immutables = immutables;
        this.version = version;
        this.refs = new RefCount(() -> {
            version.unref();
            onDeath.accept(this);
        });
    }

    boolean tryRef() {
        return refs.tryRef();
    }

    void unref() {
        refs.unref();
    }
}
