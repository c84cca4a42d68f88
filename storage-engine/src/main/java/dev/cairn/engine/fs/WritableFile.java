package dev.cairn.engine.fs;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;

/** An append-only file. Not thread-safe: one writer at a time. */
public interface WritableFile extends Closeable {

    /** Appends all remaining bytes of {@code data}. Not durable until {@link #sync()}. */
    void append(ByteBuffer data) throws IOException;

    default void append(byte[] data, int offset, int length) throws IOException {
        append(ByteBuffer.wrap(data, offset, length));
    }

    /** Bytes appended so far (the offset the next append lands at). */
    long size();

    /**
     * Asks the file system to reserve room for the file to grow to {@code bytes} without writing
     * anything or changing {@link #size()} ({@code fallocate} with {@code FALLOC_FL_KEEP_SIZE}),
     * so that its appends land in blocks set aside at once. Advice: returns whether it was done;
     * a refusal changes nothing.
     */
    default boolean reserve(long bytes) {
        return false;
    }

    /**
     * Writes zeros past the end of the file up to {@link #size()} {@code + bytes} and makes them
     * durable, leaving {@link #size()} alone: later appends overwrite them in place, so the
     * {@link #sync()} after them writes data only, with no change to the file's length or block
     * map for the file system to journal. {@link #close()} cuts the zeros still unused. Returns
     * whether it was done; a file that does not do it changes nothing.
     */
    default boolean zeroFill(long bytes) throws IOException {
        return false;
    }

    /** Makes everything appended so far durable (fdatasync). */
    void sync() throws IOException;

    /** Closes without syncing. */
    @Override
    void close() throws IOException;
}
