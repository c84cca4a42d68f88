package dev.cairn.engine.vlog;

import dev.cairn.engine.CorruptionException;
import java.nio.ByteBuffer;

/**
 * Where a value lives: {@code offset} is the position of the value bytes themselves (not of their
 * record) in value file {@code fileNumber}, and {@code crc32c} the CRC32C of those
 * {@code length} bytes alone, so that a point read is one positional read, verified on its own.
 *
 * <p>Encoded form, 20 bytes, big-endian:
 * {@code fileNumber u32 | offset u64 | length u32 | crc32c u32}.
 * DO NOT CHANGE: embedded in on-disk data (SSTables hold encoded pointers).
 *
 * <p>Immutable; thread-safe.
 */
public record ValuePointer(long fileNumber, long offset, int length, int crc32c) {

    /** DO NOT CHANGE: embedded in on-disk data. */
    public static final int ENCODED_LENGTH = 20;

    public ValuePointer {
        ValueFileFormat.checkFileNumber(fileNumber);
        if (offset < 0) {
            throw new IllegalArgumentException("negative value offset " + offset);
        }
        if (length < 0) {
            throw new IllegalArgumentException("negative value length " + length);
        }
    }

    public byte[] encode() {
        return ByteBuffer.allocate(ENCODED_LENGTH)
                .putInt((int) fileNumber)
                .putLong(offset)
                .putInt(length)
                .putInt(crc32c)
                .array();
    }

    public static ValuePointer decode(byte[] encoded) {
        if (encoded.length != ENCODED_LENGTH) {
            throw new IllegalArgumentException("an encoded value pointer is " + ENCODED_LENGTH + " bytes, not "
                    + encoded.length);
        }
        return decode(encoded, 0);
    }

    /**
     * Decodes a pointer read from a file (a log record, an SSTable entry): one that cannot be a
     * pointer (wrong size, negative offset or length, file number out of range) is damage.
     */
    public static ValuePointer decodeStored(byte[] encoded, String where) throws CorruptionException {
        try {
            return decode(encoded);
        } catch (IllegalArgumentException e) {
            throw new CorruptionException("malformed value pointer in " + where + ": " + e.getMessage());
        }
    }

    /** Decodes the {@link #ENCODED_LENGTH} bytes at {@code position}. */
    public static ValuePointer decode(byte[] bytes, int position) {
        ByteBuffer in = ByteBuffer.wrap(bytes, position, ENCODED_LENGTH);
        return new ValuePointer(Integer.toUnsignedLong(in.getInt()), in.getLong(), in.getInt(), in.getInt());
    }
}
