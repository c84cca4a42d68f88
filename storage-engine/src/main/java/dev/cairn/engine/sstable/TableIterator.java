package dev.cairn.engine.sstable;

import java.io.IOException;
import java.util.NoSuchElementException;

/**
 * Walks the entries of one {@link SSTableReader} in key order. Starts unpositioned: call
 * {@link #seekToFirst()} or {@link #seek(byte[])}. Moving may read a data block, so
 * {@code seekToFirst}, {@code seek} and {@code next} throw {@link IOException}
 * ({@link dev.cairn.engine.CorruptionException} for a damaged block); after one the iterator is
 * invalid. Not thread-safe: one per thread.
 */
public final class TableIterator {
    private final SSTableReader reader;
    private final boolean fillCache;
    private int blockIndex;
    private Block.Cursor cursor;

    TableIterator(SSTableReader reader, boolean fillCache) {
        this.reader = reader;
        this.fillCache = fillCache;
    }

    /** True when positioned on an entry. */
    public boolean valid() {
        return cursor != null && cursor.valid();
    }

    /** The current entry's internal key, a fresh copy. */
    public byte[] key() {
        requireValid();
        return cursor.key().clone();
    }

    /** The current entry's value, a fresh copy. */
    public byte[] value() {
        requireValid();
        return cursor.value();
    }

    public void seekToFirst() throws IOException {
        positionAtStartOf(0);
    }

    /** Positions at the first entry whose key is at or after {@code target}, or invalid. */
    public void seek(byte[] target) throws IOException {
        cursor = null;
        int block = reader.findBlock(target);
        if (block >= reader.dataBlockCount()) {
            return;
        }
        Block.Cursor c = reader.dataBlock(block, fillCache).cursor(reader.fileName());
        c.seek(target);
        blockIndex = block;
        cursor = c;
        if (!c.valid()) {
            positionAtStartOf(block + 1);
        }
    }

    /** Moves to the next entry; invalid after the last one. */
    public void next() throws IOException {
        requireValid();
        Block.Cursor c = cursor;
        cursor = null;
        c.next();
        cursor = c;
        if (!c.valid()) {
            positionAtStartOf(blockIndex + 1);
        }
    }

    private void positionAtStartOf(int block) throws IOException {
        cursor = null;
        for (int i = block; i < reader.dataBlockCount(); i++) {
            Block.Cursor c = reader.dataBlock(i, fillCache).cursor(reader.fileName());
            c.seekToFirst();
            if (c.valid()) {
                blockIndex = i;
                cursor = c;
                return;
            }
        }
    }

    private void requireValid() {
        if (!valid()) {
            throw new NoSuchElementException("iterator is not positioned on an entry");
        }
    }
}
