package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.SSTableReader;
import dev.cairn.engine.sstable.TableIterator;
import java.io.IOException;

/** Adapts an SSTable's iterator to {@link InternalIterator}. */
final class TableFileIterator implements InternalIterator {
    private final TableIterator it;

    TableFileIterator(SSTableReader reader, boolean fillCache) {
        this.it = reader.iterator(fillCache);
    }

    @Override
    public void seekToFirst() throws IOException {
        it.seekToFirst();
    }

    @Override
    public void seek(byte[] target) throws IOException {
        it.seek(target);
    }

    @Override
    public boolean valid() {
        return it.valid();
    }

    @Override
    public byte[] key() {
        return it.key();
    }

    @Override
    public byte[] value() {
        return it.value();
    }

    @Override
    public void next() throws IOException {
        it.next();
    }
}
