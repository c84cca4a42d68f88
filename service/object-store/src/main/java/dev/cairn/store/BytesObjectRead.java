package dev.cairn.store;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** An object whose row and whole content are already in memory, as caches hold them. */
record BytesObjectRead(ObjectInfo info, byte[] bytes) implements ObjectRead {

    @Override
    public InputStream open(long offset, long length) {
        return new ByteArrayInputStream(bytes, (int) offset, (int) length);
    }

    @Override
    public ByteBuffer inMemory(long offset, long length) {
        return ByteBuffer.wrap(bytes, (int) offset, (int) length).asReadOnlyBuffer();
    }

    @Override
    public void close() {
    }
}
