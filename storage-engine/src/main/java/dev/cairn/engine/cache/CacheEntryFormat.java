package dev.cairn.engine.cache;

import dev.cairn.engine.util.Checksums;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * One entry of an SSD cache segment (docs/format/ssd-cache-segment.md), little-endian:
 * <pre>
 *   crc32c   u32   over bytes 4 .. end of entry
 *   keyLen   u32   1 ..
 *   valueLen u32
 *   key      keyLen bytes
 *   value    valueLen bytes
 * </pre>
 * The checksum does not cover the entry's position, so garbage collection copies entries verbatim.
 */
final class CacheEntryFormat {
    static final int HEADER_BYTES = 12;

    private CacheEntryFormat() {
    }

    static byte[] encode(byte[] key, byte[] value) {
        byte[] entry = new byte[HEADER_BYTES + key.length + value.length];
        ByteBuffer b = ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN);
        b.position(4);
        b.putInt(key.length);
        b.putInt(value.length);
        b.put(key);
        b.put(value);
        b.putInt(0, Checksums.crc32c(entry, 4, entry.length - 4));
        return entry;
    }

    static int keyLength(byte[] entry, int at) {
        return ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN).getInt(at + 4);
    }

    static int valueLength(byte[] entry, int at) {
        return ByteBuffer.wrap(entry).order(ByteOrder.LITTLE_ENDIAN).getInt(at + 8);
    }

    /**
     * Size of the entry whose header starts at {@code at}, or -1 when the header's lengths are
     * impossible (negative, or larger than {@code limit}).
     */
    static int entrySize(byte[] bytes, int at, long limit) {
        long k = keyLength(bytes, at) & 0xFFFF_FFFFL;
        long v = valueLength(bytes, at) & 0xFFFF_FFFFL;
        long size = HEADER_BYTES + k + v;
        return (k == 0 || size > limit) ? -1 : (int) size;
    }

    /** Whether the {@code size} bytes at {@code at} are an intact entry. */
    static boolean verify(byte[] bytes, int at, int size) {
        if (size < HEADER_BYTES || entrySize(bytes, at, size) != size) {
            return false;
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, at + 4, size - 4);
        int stored = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(at);
        return stored == (int) crc.getValue();
    }

    static boolean keyEquals(byte[] entry, int at, byte[] key) {
        int k = keyLength(entry, at);
        int from = at + HEADER_BYTES;
        return k == key.length && Arrays.equals(entry, from, from + k, key, 0, k);
    }

    static byte[] key(byte[] entry, int at) {
        int from = at + HEADER_BYTES;
        return Arrays.copyOfRange(entry, from, from + keyLength(entry, at));
    }

    static byte[] value(byte[] entry, int at) {
        int from = at + HEADER_BYTES + keyLength(entry, at);
        return Arrays.copyOfRange(entry, from, from + valueLength(entry, at));
    }
}
