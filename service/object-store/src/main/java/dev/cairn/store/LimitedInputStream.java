package dev.cairn.store;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * At most {@code limit} bytes of the stream underneath. Closing it closes that stream, unless it
 * is one part of a longer stream that the caller goes on reading ({@link #part}).
 */
public final class LimitedInputStream extends FilterInputStream {
    private final boolean closesUnderlying;
    private long left;

    public LimitedInputStream(InputStream in, long limit) {
        this(in, limit, true);
    }

    private LimitedInputStream(InputStream in, long limit, boolean closesUnderlying) {
        super(in);
        this.left = limit;
        this.closesUnderlying = closesUnderlying;
    }

    /** The next {@code limit} bytes of {@code in}; closing the part leaves {@code in} open. */
    public static LimitedInputStream part(InputStream in, long limit) {
        return new LimitedInputStream(in, limit, false);
    }

    @Override
    public int read() throws IOException {
        if (left <= 0) {
            return -1;
        }
        int b = in.read();
        if (b >= 0) {
            left--;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (left <= 0) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, left));
        if (n > 0) {
            left -= n;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = in.skip(Math.min(n, left));
        left -= skipped;
        return skipped;
    }

    @Override
    public int available() throws IOException {
        return (int) Math.min(in.available(), left);
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    @Override
    public void close() throws IOException {
        if (closesUnderlying) {
            in.close();
        }
    }
}
