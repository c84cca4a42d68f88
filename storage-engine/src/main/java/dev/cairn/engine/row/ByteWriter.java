package dev.cairn.engine.row;

import dev.cairn.engine.util.Varint;
import java.util.Arrays;

/** A growable byte array for encoding rows and catalogue records. Not thread-safe. */
final class ByteWriter {
    private byte[] buf;
    private int size;

    ByteWriter(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    void u8(int b) {
        ensure(1);
        buf[size++] = (byte) b;
    }

    void varint(long v) {
        ensure(Varint.MAX_BYTES);
        size = Varint.putLong(buf, size, v);
    }

    void bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, size, b.length);
        size += b.length;
    }

    void string(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        varint(b.length);
        bytes(b);
    }

    byte[] toArray() {
        return Arrays.copyOf(buf, size);
    }

    private void ensure(int n) {
        if (size + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
        }
    }
}
