package dev.cairn.engine;

import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * Entries in key order. I/O errors surface as {@link UncheckedIOException}. Close it to release
 * the files it pins.
 */
public interface EntryIterator extends Iterator<Entry>, AutoCloseable {
    @Override
    void close();
}
