package dev.cairn.store;

import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * An object whose row and whole content are in memory in a read-only buffer, on or off the heap,
 * as the hot object cache holds them. Each read takes its own views of the buffer.
 */
record BufferObjectRead(ObjectInfo info, ByteBuffer bytes) implements ObjectRead {

    @Override
    public InputStream open(long offset, long length) {
        ByteBuffer view = inMemory(offset, length);
        return new InputStream() {
            @Override
            public int read() {
                return view.hasRemaining() ? view.get() & 0xFF : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                java.util.Objects.checkFromIndexSize(off, len, b.length);
                if (len == 0) {
                    return 0;
                }
                if (!view.hasRemaining()) {
                    return -1;
                }
                int n = Math.min(len, view.remaining());
                view.get(b, off, n);
                return n;
            }

            @Override
            public long skip(long n) {
                int k = (int) Math.max(0, Math.min(n, view.remaining()));
                view.position(view.position() + k);
                return k;
            }

            @Override
            public int available() {
                return view.remaining();
            }
        };
    }

    @Override
    public ByteBuffer inMemory(long offset, long length) {
        return bytes.slice((int) offset, (int) length);
    }

    @Override
    public void close() {
    }
}
