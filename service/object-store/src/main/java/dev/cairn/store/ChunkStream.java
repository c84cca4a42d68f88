package dev.cairn.store;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a range of content stored as fixed-size chunks, fetching one chunk at a time, so memory
 * stays at one chunk whatever the object's size. Not thread-safe.
 */
public final class ChunkStream extends InputStream {

    /** Fetches chunk {@code index}, checked; never null (a missing chunk is an error). */
    public interface ChunkSource {
        byte[] chunk(int index) throws IOException;
    }

    private final long chunkBytes;
    private final long end;
    private final ChunkSource source;
    private long position;
    private byte[] chunk;
    private int chunkIndex = -1;

    /** Streams bytes [{@code start}, {@code end}) of content cut into chunks of {@code chunkBytes}. */
    public ChunkStream(long chunkBytes, long start, long end, ChunkSource source) {
        this.chunkBytes = chunkBytes;
        this.position = start;
        this.end = end;
        this.source = source;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (position >= end) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        int index = (int) (position / chunkBytes);
        if (index != chunkIndex) {
            chunk = source.chunk(index);
            chunkIndex = index;
        }
        int within = (int) (position - index * chunkBytes);
        int n = (int) Math.min(Math.min(len, chunk.length - within), end - position);
        if (n <= 0) {
            throw new IOException("chunk " + index + " holds " + chunk.length + " bytes, fewer than its content needs");
        }
        System.arraycopy(chunk, within, b, off, n);
        position += n;
        return n;
    }
}
