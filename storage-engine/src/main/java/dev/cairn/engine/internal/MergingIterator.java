package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import java.io.IOException;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Merges several iterators into one ordered stream. Internal keys are unique (sequence numbers
 * differ), so ties cannot occur between sources.
 */
final class MergingIterator implements InternalIterator {
    private final List<InternalIterator> children;
    private final PriorityQueue<InternalIterator> heap;
    private InternalIterator current;

    MergingIterator(List<InternalIterator> children) {
        this.children = children;
        this.heap = new PriorityQueue<>(Math.max(1, children.size()),
                (a, b) -> InternalKeys.COMPARATOR.compare(a.key(), b.key()));
    }

    @Override
    public void seekToFirst() throws IOException {
        heap.clear();
        for (InternalIterator child : children) {
            child.seekToFirst();
            if (child.valid()) {
                heap.add(child);
            }
        }
        current = heap.poll();
    }

    @Override
    public void seek(byte[] target) throws IOException {
        heap.clear();
        for (InternalIterator child : children) {
            child.seek(target);
            if (child.valid()) {
                heap.add(child);
            }
        }
        current = heap.poll();
    }

    @Override
    public boolean valid() {
        return current != null;
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
        if (current.valid()) {
            heap.add(current);
        }
        current = heap.poll();
    }

    @Override
    public void close() {
        for (InternalIterator child : children) {
            child.close();
        }
    }
}
