package dev.cairn.service.store;

import java.io.IOException;
import java.io.InputStream;

/**
 * A consistent read of stored content: what it opens stays readable until closed, whatever
 * writes happen meanwhile. Not thread-safe; one reader.
 */
public interface ContentRead extends AutoCloseable {

    long size();

    /** The bytes {@code [offset, offset + length)}; requires {@code 0 <= offset <= offset + length <= size()}. */
    InputStream open(long offset, long length) throws IOException;

    @Override
    void close();
}
