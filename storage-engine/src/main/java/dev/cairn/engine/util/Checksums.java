package dev.cairn.engine.util;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/** CRC32C, the checksum of every on-disk format. */
public final class Checksums {
    private Checksums() {
    }

    public static int crc32c(byte[] data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, offset, length);
        return (int) crc.getValue();
    }

    public static int crc32c(byte[] data) {
        return crc32c(data, 0, data.length);
    }

    /** Checksum of the buffer's remaining bytes; the buffer's position is left unchanged. */
    public static int crc32c(ByteBuffer data) {
        CRC32C crc = new CRC32C();
        crc.update(data.duplicate());
        return (int) crc.getValue();
    }
}
