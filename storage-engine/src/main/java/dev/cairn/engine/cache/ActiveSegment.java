package dev.cairn.engine.cache;

import dev.cairn.engine.fs.WritableFile;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The one segment of the {@link SsdCache} that takes writes, and its write buffer. Entries go into
 * the buffer, and the buffer into the file when the next entry does not fit; an entry larger than
 * the whole buffer goes to the file directly. Readers copy entries still in the buffer from the
 * published {@link BufferView}; a flush publishes a fresh buffer, so the bytes of a published view
 * never change.
 *
 * <p>Thread-safety: {@link #view()} and {@link #segment()} may be called by any thread without a
 * lock. Every other method REQUIRES the cache's write lock.
 */
final class ActiveSegment {
    /** The bytes readers may copy from: the buffer's segment, its file offset and its bytes. */
    record BufferView(int segment, long fileOffset, byte[] bytes) {
        /** Where the entry at {@code offset} of {@code segmentNumber} starts in the bytes; -1 if not all in them. */
        int indexOf(int segmentNumber, long offset, int size) {
            return segment == segmentNumber && offset >= fileOffset && offset + size <= fileOffset + bytes.length
                    ? (int) (offset - fileOffset) : -1;
        }
    }

    private final CacheSegment segment;
    private final WritableFile file;
    private byte[] buffer;
    private int bufferLength;
    private long bufferFileOffset;
    private volatile BufferView view;

    /** Starts the segment with {@code header} in a fresh buffer of {@code bufferBytes}. */
    ActiveSegment(CacheSegment segment, WritableFile file, int bufferBytes, byte[] header) {
        this.segment = segment;
        this.file = file;
        this.buffer = new byte[bufferBytes];
        System.arraycopy(header, 0, buffer, 0, header.length);
        this.bufferLength = header.length;
        segment.setWritten(header.length);
        this.view = new BufferView(segment.number, 0, buffer);
    }

    CacheSegment segment() {
        return segment;
    }

    BufferView view() {
        return view;
    }

    /** The segment's length once everything appended so far is written. */
    long end() {
        return bufferFileOffset + bufferLength;
    }

    /** Appends {@code entry}, which the caller has checked fits in the segment; returns its file offset. */
    long append(byte[] entry) throws IOException {
        long at = end();
        if (entry.length > buffer.length - bufferLength) {
            flush();
        }
        if (entry.length > buffer.length) {
            file.append(ByteBuffer.wrap(entry));
            bufferFileOffset += entry.length;
            view = new BufferView(segment.number, bufferFileOffset, buffer);
        } else {
            System.arraycopy(entry, 0, buffer, bufferLength, entry.length);
            bufferLength += entry.length;
        }
        segment.setWritten(end());
        return at;
    }

    /** Writes the buffer out and publishes a fresh one. */
    void flush() throws IOException {
        if (bufferLength > 0) {
            file.append(ByteBuffer.wrap(buffer, 0, bufferLength));
            bufferFileOffset += bufferLength;
            buffer = new byte[buffer.length];
            bufferLength = 0;
        }
        view = new BufferView(segment.number, bufferFileOffset, buffer);
    }

    /** Flushes and syncs. */
    void flushAndSync() throws IOException {
        flush();
        file.sync();
    }

    /** Flushes, syncs and closes the file, and seals the segment: it takes no more writes. */
    void seal() throws IOException {
        flushAndSync();
        file.close();
        segment.seal();
    }

    void closeFile() throws IOException {
        file.close();
    }
}
