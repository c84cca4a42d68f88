package dev.cairn.engine.vlog;

/**
 * Where a dead value's space may be given back in place: the whole {@link #BLOCK_BYTES}-byte
 * blocks (aligned to multiples of that in the file) that lie inside the value's bytes. The
 * record's header, its key and the value's partial blocks at either end are never punched, so a
 * scan still walks from record to record by their lengths, and a record whose checksum fails
 * while one such block of its value reads as zeros is a reclaimed one (see
 * {@code docs/format/value-file.md}, "Reclaimed records"). Stateless, thread-safe.
 */
public final class ValueHoles {
    /** DO NOT CHANGE: scans recognise reclaimed records by whole zero blocks of this size. */
    public static final int BLOCK_BYTES = 4096;

    private ValueHoles() {
    }

    /** The first byte of the punchable blocks inside the value {@code pointer} names. */
    public static long start(ValuePointer pointer) {
        return firstBlock(pointer.offset());
    }

    /** The bytes of the punchable blocks inside the value; 0 when it spans no whole block. */
    public static long length(ValuePointer pointer) {
        long start = firstBlock(pointer.offset());
        long end = (pointer.offset() + pointer.length()) / BLOCK_BYTES * BLOCK_BYTES;
        return Math.max(0, end - start);
    }

    private static long firstBlock(long offset) {
        return (offset + BLOCK_BYTES - 1) / BLOCK_BYTES * BLOCK_BYTES;
    }

    /** Whether some whole block inside {@code value}, stored at {@code valueOffset}, is all zeros. */
    static boolean holdsZeroBlock(byte[] value, long valueOffset) {
        long end = valueOffset + value.length;
        for (long block = firstBlock(valueOffset); block + BLOCK_BYTES <= end; block += BLOCK_BYTES) {
            int from = (int) (block - valueOffset);
            boolean zeros = true;
            for (int i = from; i < from + BLOCK_BYTES && zeros; i++) {
                zeros = value[i] == 0;
            }
            if (zeros) {
                return true;
            }
        }
        return false;
    }
}
