package dev.cairn.engine.sstable;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;

/**
 * Internal keys, the keys of memtables and SSTables:
 * {@code tableId (u16 big-endian) | user key | trailer (u64 big-endian: sequence << 8 | kind)}.
 * They sort by table and user key (unsigned bytes) ascending, then by sequence descending, so the
 * newest version of a key comes first. The bloom filter key is everything but the trailer.
 */
public final class InternalKeys {
    private InternalKeys() {
    }

    /** Entry kinds. DO NOT CHANGE: embedded in on-disk data. */
    public static final byte KIND_DELETE = 0;
    public static final byte KIND_VALUE = 1;
    public static final byte KIND_VALUE_POINTER = 2;

    public static final int TRAILER_BYTES = 8;
    public static final long MAX_SEQUENCE = (1L << 56) - 1;

    public static final Comparator<byte[]> COMPARATOR = InternalKeys::compare;

    public static byte[] encode(int tableId, byte[] userKey, long sequence, byte kind) {
        byte[] key = new byte[2 + userKey.length + TRAILER_BYTES];
        key[0] = (byte) (tableId >>> 8);
        key[1] = (byte) tableId;
        System.arraycopy(userKey, 0, key, 2, userKey.length);
        ByteBuffer.wrap(key, 2 + userKey.length, TRAILER_BYTES).putLong(sequence << 8 | (kind & 0xFF));
        return key;
    }

    /** The key that sorts first among all versions of (tableId, userKey) visible at {@code sequence}. */
    public static byte[] seekKey(int tableId, byte[] userKey, long sequence) {
        return encode(tableId, userKey, sequence, (byte) 0xFF);
    }

    public static int tableId(byte[] internalKey) {
        return (internalKey[0] & 0xFF) << 8 | (internalKey[1] & 0xFF);
    }

    public static byte[] userKey(byte[] internalKey) {
        return Arrays.copyOfRange(internalKey, 2, internalKey.length - TRAILER_BYTES);
    }

    /** tableId and user key: the part the bloom filter hashes. */
    public static byte[] filterKey(byte[] internalKey) {
        return Arrays.copyOf(internalKey, internalKey.length - TRAILER_BYTES);
    }

    public static long trailer(byte[] internalKey) {
        return ByteBuffer.wrap(internalKey, internalKey.length - TRAILER_BYTES, TRAILER_BYTES).getLong();
    }

    public static long sequence(byte[] internalKey) {
        return trailer(internalKey) >>> 8;
    }

    public static byte kind(byte[] internalKey) {
        return (byte) trailer(internalKey);
    }

    public static int compare(byte[] a, byte[] b) {
        int c = Arrays.compareUnsigned(a, 0, a.length - TRAILER_BYTES, b, 0, b.length - TRAILER_BYTES);
        if (c != 0) {
            return c;
        }
        return Long.compareUnsigned(trailer(b), trailer(a));
    }

    /** True when both keys carry the same table and user key. */
    public static boolean sameUserKey(byte[] a, byte[] b) {
        return Arrays.equals(a, 0, a.length - TRAILER_BYTES, b, 0, b.length - TRAILER_BYTES);
    }
}
