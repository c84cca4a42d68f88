package dev.cairn.engine.util;

import java.nio.ByteBuffer;

/**
 * Unsigned LEB128 integers, as used throughout the on-disk formats (docs/format/): seven bits a
 * byte, least significant first, the high bit set on every byte but the last. The engine's one
 * writer of them. Thread-safe: stateless.
 */
public final class Varint {
    /** The longest encoding, of a value with its top bit set. */
    public static final int MAX_BYTES = 10;

    private Varint() {
    }

    public static void putLong(ByteBuffer out, long value) {
        while ((value & ~0x7FL) != 0) {
            out.put((byte) ((value & 0x7F) | 0x80));
            value >>>= 7;
        }
        out.put((byte) value);
    }

    /**
     * Writes {@code value} into {@code out} at {@code offset}, which must leave room for
     * {@link #size}{@code (value)} bytes, and returns the offset after it.
     */
    public static int putLong(byte[] out, int offset, long value) {
        while ((value & ~0x7FL) != 0) {
            out[offset++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        out[offset++] = (byte) value;
        return offset;
    }

    public static long getLong(ByteBuffer in) {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return result;
            }
        }
        throw new IllegalArgumentException("varint longer than 10 bytes");
    }

    /**
     * A length that must fit in what is left of {@code in}: checked before anything of that size
     * is allocated, so a damaged length costs an exception, not the heap.
     */
    public static int getLength(ByteBuffer in) {
        int length = getInt(in);
        if (length > in.remaining()) {
            throw new IllegalArgumentException("length " + length + " with " + in.remaining() + " bytes left");
        }
        return length;
    }

    public static int getInt(ByteBuffer in) {
        long v = getLong(in);
        if (v < 0 || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("varint out of int range: " + v);
        }
        return (int) v;
    }

    public static int size(long value) {
        int n = 1;
        while ((value & ~0x7FL) != 0) {
            value >>>= 7;
            n++;
        }
        return n;
    }
}
