package dev.cairn.engine.fs;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/** A file read with positional I/O. Thread-safe: many readers at once, no shared position. */
public interface ReadableFile extends Closeable {

    /**
     * Reads up to {@code dst.remaining()} bytes starting at {@code position}; returns the number
     * read, or -1 at end of file. One call is one device read as far as counters are concerned.
     */
    int read(long position, ByteBuffer dst) throws IOException;

    /** Reads exactly {@code dst.remaining()} bytes or fails with {@link EOFException}. */
    default void readFully(long position, ByteBuffer dst) throws IOException {
        long at = position;
        while (dst.hasRemaining()) {
            int n = read(at, dst);
            if (n < 0) {
                throw new EOFException("end of file at " + at + " reading " + dst.remaining() + " more bytes");
            }
            at += n;
        }
    }

    default byte[] readFully(long position, int length) throws IOException {
        byte[] bytes = new byte[length];
        readFully(position, ByteBuffer.wrap(bytes));
        return bytes;
    }

    long size() throws IOException;
}
