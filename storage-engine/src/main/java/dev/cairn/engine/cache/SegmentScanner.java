package dev.cairn.engine.cache;

import dev.cairn.engine.fs.ReadableFile;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Reads a segment's entries in order, in large sequential reads, and stops at the first entry
 * that is torn (runs past the end) or fails its checksum: nothing after it can be trusted to be
 * aligned on an entry. Not thread-safe; one scan per instance of use.
 */
final class SegmentScanner {
    private static final int CHUNK_BYTES = 1 << 20;

    /** Receives each intact entry: its file offset and its bytes at {@code bytes[at..at+size)}. */
    interface Visitor {
        void visit(long offset, byte[] bytes, int at, int size) throws IOException;
    }

    private SegmentScanner() {
    }

    /** Scans entries from just after the header up to {@code end}; returns where it stopped. */
    static long scan(ReadableFile file, long end, Visitor visitor) throws IOException {
        byte[] chunk = new byte[CHUNK_BYTES];
        long chunkStart = 0;
        int chunkLength = 0;
        long pos = SegmentHeader.BYTES;
        while (pos + CacheEntryFormat.HEADER_BYTES <= end) {
            if (pos + CacheEntryFormat.HEADER_BYTES > chunkStart + chunkLength) {
                chunkStart = pos;
                chunkLength = (int) Math.min(CHUNK_BYTES, end - pos);
                file.readFully(pos, ByteBuffer.wrap(chunk, 0, chunkLength));
            }
            int size = CacheEntryFormat.entrySize(chunk, (int) (pos - chunkStart), end - pos);
            if (size < 0) {
                return pos;
            }
            byte[] bytes;
            int at;
            if (pos + size <= chunkStart + chunkLength) {
                bytes = chunk;
                at = (int) (pos - chunkStart);
            } else if (size <= CHUNK_BYTES) {
                chunkStart = pos;
                chunkLength = (int) Math.min(CHUNK_BYTES, end - pos);
                file.readFully(pos, ByteBuffer.wrap(chunk, 0, chunkLength));
                bytes = chunk;
                at = 0;
            } else {
                bytes = file.readFully(pos, size);
                at = 0;
            }
            if (!CacheEntryFormat.verify(bytes, at, size)) {
                return pos;
            }
            visitor.visit(pos, bytes, at, size);
            pos += size;
        }
        return pos;
    }
}
