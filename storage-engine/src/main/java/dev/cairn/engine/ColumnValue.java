package dev.cairn.engine;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The value of one column, with its type (docs/format/row.md, "Column types"): variable bytes
 * held inline, an unsigned integer, bytes of a fixed width, or a pointer (opaque to rows, exactly
 * {@link #SEPARATED_POINTER_BYTES} bytes) to bytes the engine keeps in a value file. The type is
 * part of the row's schema, so a catalogued row spends no bytes on lengths the schema fixes.
 * Immutable: bytes are copied in and out.
 */
public final class ColumnValue {
    /** Size of a separated-value pointer. DO NOT CHANGE: embedded in on-disk data. */
    public static final int SEPARATED_POINTER_BYTES = 20;
    /** Widest fixed-width value. */
    public static final int MAX_FIXED_WIDTH = 1024;

    /** How a column's value is encoded. */
    public enum Type {
        /** Bytes of any length, inline. */
        BYTES,
        /** An unsigned 64-bit integer. */
        UINT,
        /** Bytes of a width (1..{@link #MAX_FIXED_WIDTH}) the schema records. */
        FIXED,
        /** A pointer to a separated value. */
        SEPARATED
    }

    private static final byte[] NONE = new byte[0];

    private final Type type;
    private final byte[] bytes;
    private final long number;

    private ColumnValue(Type type, byte[] bytes, long number) {
        this.type = type;
        this.bytes = bytes;
        this.number = number;
    }

    public static ColumnValue inline(byte[] bytes) {
        return new ColumnValue(Type.BYTES, Objects.requireNonNull(bytes, "bytes").clone(), 0);
    }

    /** UTF-8 text, inline. */
    public static ColumnValue text(String text) {
        return new ColumnValue(Type.BYTES, text.getBytes(StandardCharsets.UTF_8), 0);
    }

    /** An unsigned integer: negative longs stand for values of 2^63 and above. */
    public static ColumnValue uint(long value) {
        return new ColumnValue(Type.UINT, NONE, value);
    }

    /** Bytes whose width (their length, 1..{@link #MAX_FIXED_WIDTH}) becomes part of the schema. */
    public static ColumnValue fixed(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length == 0 || bytes.length > MAX_FIXED_WIDTH) {
            throw new IllegalArgumentException("a fixed-width value is 1.." + MAX_FIXED_WIDTH + " bytes, not "
                    + bytes.length);
        }
        return new ColumnValue(Type.FIXED, bytes.clone(), 0);
    }

    public static ColumnValue separated(byte[] pointer) {
        Objects.requireNonNull(pointer, "pointer");
        if (pointer.length != SEPARATED_POINTER_BYTES) {
            throw new IllegalArgumentException("a separated-value pointer is " + SEPARATED_POINTER_BYTES
                    + " bytes, not " + pointer.length);
        }
        return new ColumnValue(Type.SEPARATED, pointer.clone(), 0);
    }

    public Type type() {
        return type;
    }

    /** Whether the bytes are a pointer to a separated value rather than the value itself. */
    public boolean isSeparated() {
        return type == Type.SEPARATED;
    }

    /** A copy of the value's bytes (the pointer, for a separated value). Not for {@link Type#UINT}. */
    public byte[] bytes() {
        requireBytes();
        return bytes.clone();
    }

    /** The bytes as UTF-8 text. Not for {@link Type#UINT}. */
    public String asText() {
        requireBytes();
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** The value of a {@link Type#UINT}. */
    public long asLong() {
        if (type != Type.UINT) {
            throw new IllegalStateException("a " + type + " value is not an integer");
        }
        return number;
    }

    /** The number of bytes of a byte-valued column; 8 for an integer. */
    public int length() {
        return type == Type.UINT ? Long.BYTES : bytes.length;
    }

    private void requireBytes() {
        if (type == Type.UINT) {
            throw new IllegalStateException("an integer value has no bytes; use asLong()");
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnValue other && type == other.type && number == other.number
                && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return (Arrays.hashCode(bytes) * 31 + Long.hashCode(number)) * 31 + type.ordinal();
    }

    @Override
    public String toString() {
        return switch (type) {
            case UINT -> "uint[" + Long.toUnsignedString(number) + "]";
            case SEPARATED -> "separated[" + bytes.length + " bytes]";
            case FIXED -> "fixed[" + bytes.length + " bytes]";
            case BYTES -> "inline[" + bytes.length + " bytes]";
        };
    }
}
