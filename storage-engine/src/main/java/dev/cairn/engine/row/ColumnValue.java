package dev.cairn.engine.row;

import java.util.Arrays;
import java.util.Objects;

/**
 * The value of one column: bytes held inline in the row, or a pointer (opaque to rows, exactly
 * {@link #SEPARATED_POINTER_BYTES} bytes) to bytes the engine keeps in a value file. Immutable:
 * the bytes are copied in and never handed out for modification ({@link #bytes()} copies).
 */
public final class ColumnValue {
    /** Size of a separated-value pointer. DO NOT CHANGE: embedded in on-disk data. */
    public static final int SEPARATED_POINTER_BYTES = 20;

    private final byte[] bytes;
    private final boolean separated;

    private ColumnValue(byte[] bytes, boolean separated) {
        this.bytes = bytes;
        this.separated = separated;
    }

    public static ColumnValue inline(byte[] bytes) {
        return new ColumnValue(Objects.requireNonNull(bytes, "bytes").clone(), false);
    }

    public static ColumnValue separated(byte[] pointer) {
        Objects.requireNonNull(pointer, "pointer");
        if (pointer.length != SEPARATED_POINTER_BYTES) {
            throw new IllegalArgumentException("a separated-value pointer is " + SEPARATED_POINTER_BYTES
                    + " bytes, not " + pointer.length);
        }
        return new ColumnValue(pointer.clone(), true);
    }

    /** Wraps without copying; for the decoder, which owns the array. */
    static ColumnValue wrap(byte[] bytes, boolean separated) {
        return new ColumnValue(bytes, separated);
    }

    /** Whether the bytes are a pointer to a separated value rather than the value itself. */
    public boolean isSeparated() {
        return separated;
    }

    /** A copy of the inline value or of the pointer. */
    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    /** The bytes without copying. REQUIRES: the caller never modifies them. */
    byte[] rawBytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnValue other && separated == other.separated && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes) * 31 + (separated ? 1 : 0);
    }

    @Override
    public String toString() {
        return (separated ? "separated[" : "inline[") + bytes.length + " bytes]";
    }
}
