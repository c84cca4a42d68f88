package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.sstable.SSTableReader;
import java.io.IOException;
import java.util.List;
import java.util.function.LongFunction;

/** Iterates the files of one sorted level (1 and deeper) in key order, opening one file at a time. */
final class LevelIterator implements InternalIterator {
    private final List<FileMeta> files;
    private final LongFunction<SSTableReader> readers;
    private final boolean fillCache;
    private int index;
    private InternalIterator current;

    LevelIterator(List<FileMeta> files, LongFunction<SSTableReader> readers, boolean fillCache) {
        this.files = files;
        this.readers = readers;
        this.fillCache = fillCache;
    }

    @Override
    public void seekToFirst() throws IOException {
        open(0);
        if (current != null) {
            current.seekToFirst();
        }
        skipEmpty();
    }

    @Override
    public void seek(byte[] target) throws IOException {
        int lo = 0;
        int hi = files.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (InternalKeys.COMPARATOR.compare(files.get(mid).largest(), target) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        open(lo);
        if (current != null) {
            current.seek(target);
        }
        skipEmpty();
    }

    private void open(int i) {
        index = i;
        current = i < files.size() ? new TableFileIterator(readers.apply(files.get(i).number()), fillCache) : null;
    }

    private void skipEmpty() throws IOException {
        while (current != null && !current.valid()) {
            open(index + 1);
            if (current != null) {
                current.seekToFirst();
            }
        }
    }

    @Override
    public boolean valid() {
        return current != null && current.valid();
    }

    @Override
    public byte[] key() {
        return current.key();
    }

    @Override
    public byte[] value() {
        return current.value();
    }

    @Override
    public void next() throws IOException {
        current.next();
        skipEmpty();
    }
}
