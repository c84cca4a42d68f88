package dev.cairn.engine.cache;

import dev.cairn.engine.util.Checksums;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The 32-byte header at the start of every SSD cache segment, little-endian:
 * <pre>
 *   0  8  magic "CAIRNSSD"
 *   8  4  format version (1)
 *  12  4  segment number
 *  16  8  target size of the segment in bytes
 *  24  4  reserved, zero
 *  28  4  crc32c of bytes 0..27
 * </pre>
 */
final class SegmentHeader {
    static final int BYTES = 32;
    /** DO NOT CHANGE: embedded in on-disk data. */
    static final byte[] MAGIC = "CAIRNSSD".getBytes(StandardCharsets.US_ASCII);
    /** DO NOT CHANGE: embedded in on-disk data. */
    static final int VERSION = 1;

    private SegmentHeader() {
    }

    static byte[] encode(int segment, long targetBytes) {
        byte[] header = new byte[BYTES];
        ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(VERSION).putInt(segment).putLong(targetBytes).putInt(0);
        b.putInt(Checksums.crc32c(header, 0, 28));
        return header;
    }

    /** Whether {@code header} is a valid header of segment {@code segment}. */
    static boolean isValid(byte[] header, int segment) {
        if (header.length < BYTES || !Arrays.equals(header, 0, 8, MAGIC, 0, 8)) {
            return false;
        }
        ByteBuffer b = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN);
        return b.getInt(8) == VERSION && b.getInt(12) == segment
                && b.getInt(28) == Checksums.crc32c(header, 0, 28);
    }
}
