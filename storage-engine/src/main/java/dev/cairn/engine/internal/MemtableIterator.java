package dev.cairn.engine.internal;

import java.util.Iterator;
import java.util.Map;

/** Iterates a memtable; weakly consistent, which is safe because readers filter by sequence. */
final class MemtableIterator implements InternalIterator {
    private final Memtable mem;
    private Iterator<Map.Entry<byte[], byte[]>> it;
    private Map.Entry<byte[], byte[]> current;

    MemtableIterator(Memtable mem) {
        this.mem = mem;
    }

    @Override
    public void seekToFirst() {
        it = mem.map().entrySet().iterator();
        advance();
    }

    @Override
    public void seek(byte[] target) {
        it = mem.map().tailMap(target, true).entrySet().iterator();
        advance();
    }

    private void advance() {
        current = it.hasNext() ? it.next() : null;
    }

    @Override
    public boolean valid() {
        return current != null;
    }

    @Override
    public byte[] key() {
        return current.getKey();
    }

    @Override
    public byte[] value() {
        return current.getValue();
    }

    @Override
    public void next() {
        advance();
    }
}
