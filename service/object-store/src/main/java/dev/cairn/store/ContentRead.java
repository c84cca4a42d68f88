package dev.cairn.store;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * A consistent read of stored content: what it opens stays readable until closed, whatever
 * writes happen meanwhile. Not thread-safe; one reader.
 */
public interface ContentRead extends AutoCloseable {

    long size();

    /** The bytes {@code [offset, offset + length)}; requires {@code 0 <= offset <= offset + length <= size()}. */
    InputStream open(long offset, long length) throws IOException;

    /** All the bytes, as a stream whose {@code close} also closes this read. */
    default InputStream openAll() throws IOException {
        ContentRead read = this;
        return new FilterInputStream(open(0, size())) {
            @Override
            public void close() throws IOException {
                try {
                    super.close();
                } finally {
                    read.close();
                }
            }
        };
    }

    /**
     * The bytes {@code [offset, offset + length)} as a read-only buffer when they are in memory
     * already (a cached object), so that they are written without a copy; null otherwise.
     */
    default ByteBuffer inMemory(long offset, long length) {
        return null;
    }

    @Override
    void close();
}
