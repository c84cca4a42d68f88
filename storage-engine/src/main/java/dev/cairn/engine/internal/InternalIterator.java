package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import java.io.IOException;

/** A cursor over internal keys in {@link InternalKeys#COMPARATOR} order. Single-threaded. */
interface InternalIterator extends AutoCloseable {
    void seekToFirst() throws IOException;

    /** Positions at the first entry whose key is at or after {@code target}. */
    void seek(byte[] target) throws IOException;

    boolean valid();

    byte[] key();

    byte[] value();

    void next() throws IOException;

    @Override
    default void close() {
    }
}
