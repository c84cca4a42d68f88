package dev.cairn.engine.sstable;

import dev.cairn.engine.CorruptionException;
import java.util.Arrays;

/**
 * The verified contents of one block built by {@link BlockBuilder}, keyed by internal keys.
 * Immutable and thread-safe; shared through the {@link BlockCache}. Read it with a
 * {@link Cursor}, which belongs to one thread.
 */
final class Block {
    /** The shortest internal key: a table id and a trailer. */
    static final int MIN_KEY_BYTES = 2 + InternalKeys.TRAILER_BYTES;
    /** Object headers and fields, charged to the cache on top of the contents. */
    private static final int OVERHEAD_BYTES = 96;

    private final byte[] data;
    private final long fileOffset;
    private final int restartsOffset;
    private final int restartCount;

    private Block(byte[] data, long fileOffset, int restartsOffset, int restartCount) {
        this.data = data;
        this.fileOffset = fileOffset;
        this.restartsOffset = restartsOffset;
        this.restartCount = restartCount;
    }

    static Block parse(byte[] data, long fileOffset, String fileName) throws CorruptionException {
        if (data.length < 4) {
            throw corrupt(fileName, fileOffset, "block of " + data.length + " bytes is too short");
        }
        int count = readInt(data, data.length - 4);
        long restartsOffset = data.length - 4 - 4L * count;
        if (count < 1 || restartsOffset < 0) {
            throw corrupt(fileName, fileOffset, "bad restart count " + count);
        }
        int previous = -1;
        for (int i = 0; i < count; i++) {
            int restart = readInt(data, (int) restartsOffset + 4 * i);
            if (restart <= previous || restart >= restartsOffset) {
                throw corrupt(fileName, fileOffset, "bad restart offset " + restart);
            }
            previous = restart;
        }
        if (readInt(data, (int) restartsOffset) != 0) {
            throw corrupt(fileName, fileOffset, "first restart is not at offset 0");
        }
        return new Block(data, fileOffset, (int) restartsOffset, count);
    }

    long fileOffset() {
        return fileOffset;
    }

    int sizeBytes() {
        return data.length;
    }

    long chargeBytes() {
        return (long) data.length + OVERHEAD_BYTES;
    }

    Cursor cursor(String fileName) {
        return new Cursor(fileName);
    }

    private static int readInt(byte[] b, int i) {
        return (b[i] & 0xFF) << 24 | (b[i + 1] & 0xFF) << 16 | (b[i + 2] & 0xFF) << 8 | (b[i + 3] & 0xFF);
    }

    static CorruptionException corrupt(String fileName, long blockOffset, String what) {
        return new CorruptionException("corrupt SSTable " + fileName + ": block at offset " + blockOffset + ": " + what);
    }

    /** A position in the block. Not thread-safe. */
    final class Cursor {
        private final String fileName;
        private byte[] key;
        private int valueOffset;
        private int valueLength;
        private int nextOffset;
        private int position;

        private Cursor(String fileName) {
            this.fileName = fileName;
        }

        boolean valid() {
            return key != null;
        }

        byte[] key() {
            return key;
        }

        byte[] value() {
            return Arrays.copyOfRange(data, valueOffset, valueOffset + valueLength);
        }

        void seekToFirst() throws CorruptionException {
            decodeAt(0, null);
        }

        void next() throws CorruptionException {
            if (nextOffset >= restartsOffset) {
                key = null;
                return;
            }
            decodeAt(nextOffset, key);
        }

        /** Positions at the first entry whose key is at or after {@code target}, or invalid. */
        void seek(byte[] target) throws CorruptionException {
            int lo = 0;
            int hi = restartCount - 1;
            // Find the last restart whose key sorts before target; scan forward from it.
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                decodeAt(restart(mid), null);
                if (InternalKeys.COMPARATOR.compare(key, target) < 0) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            decodeAt(restart(lo), null);
            while (key != null && InternalKeys.COMPARATOR.compare(key, target) < 0) {
                next();
            }
        }

        private int restart(int index) {
            return readInt(data, restartsOffset + 4 * index);
        }

        private void decodeAt(int offset, byte[] previousKey) throws CorruptionException {
            position = offset;
            long shared = readVarint32(offset);
            long unshared = readVarint32(offset);
            long length = readVarint32(offset);
            int previousLength = previousKey == null ? 0 : previousKey.length;
            if (shared > previousLength || position + unshared + length > restartsOffset
                    || shared + unshared < MIN_KEY_BYTES) {
                throw corrupt(fileName, fileOffset, "bad entry at " + offset);
            }
            byte[] k = new byte[(int) (shared + unshared)];
            if (shared > 0) {
                System.arraycopy(previousKey, 0, k, 0, (int) shared);
            }
            System.arraycopy(data, position, k, (int) shared, (int) unshared);
            key = k;
            valueOffset = position + (int) unshared;
            valueLength = (int) length;
            nextOffset = valueOffset + valueLength;
        }

        /** A varint of at most 5 bytes at {@link #position}, which it advances. */
        private long readVarint32(int entryOffset) throws CorruptionException {
            long value = 0;
            for (int shift = 0; shift <= 28; shift += 7) {
                if (position >= restartsOffset) {
                    break;
                }
                byte b = data[position++];
                value |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw corrupt(fileName, fileOffset, "bad entry header at " + entryOffset);
        }
    }
}
