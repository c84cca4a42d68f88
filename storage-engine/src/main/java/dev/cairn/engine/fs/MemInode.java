package dev.cairn.engine.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Random;

/**
 * A file of {@link MemFileSystem}: its bytes (thread-safe through its own monitor) and how many
 * names it has (guarded by the file system's monitor, which changes names).
 */
final class MemInode {
    /** The block size punches give space back in. */
    static final int PUNCH_BLOCK = 4096;

    /** Names in live directories. REQUIRES: the file system's monitor. */
    int links;

    private byte[] data = new byte[0];
    private int length;
    private int syncedLength;
    private final BitSet punchedBlocks = new BitSet();

    synchronized long punch(long offset, long count) {
        long from = Math.max(0, offset);
        long to = Math.min(length, offset + count);
        if (from >= to) {
            return 0;
        }
        Arrays.fill(data, (int) from, (int) to, (byte) 0);
        long freed = 0;
        for (long block = (from + PUNCH_BLOCK - 1) / PUNCH_BLOCK; (block + 1) * PUNCH_BLOCK <= to; block++) {
            if (!punchedBlocks.get((int) block)) {
                punchedBlocks.set((int) block);
                freed += PUNCH_BLOCK;
            }
        }
        return freed;
    }

    synchronized void append(ByteBuffer src) throws IOException {
        int n = src.remaining();
        long needed = (long) length + n;
        if (needed > Integer.MAX_VALUE - 8) {
            throw new IOException("in-memory file too large: " + needed + " bytes");
        }
        if (needed > data.length) {
            byte[] grown = new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, data.length * 2L))];
            System.arraycopy(data, 0, grown, 0, length);
            data = grown;
        }
        src.get(data, length, n);
        length += n;
    }

    synchronized int read(long position, ByteBuffer dst) {
        if (position >= length) {
            return dst.hasRemaining() ? -1 : 0;
        }
        int n = (int) Math.min(dst.remaining(), length - position);
        dst.put(data, (int) position, n);
        return n;
    }

    synchronized long size() {
        return length;
    }

    synchronized void sync() {
        syncedLength = length;
    }

    synchronized void truncate() {
        data = new byte[0];
        length = 0;
        syncedLength = 0;
        punchedBlocks.clear();
    }

    synchronized void flipBit(long byteOffset, int bit) {
        if (byteOffset < 0 || byteOffset >= length) {
            throw new IllegalArgumentException("offset " + byteOffset + " outside a file of " + length + " bytes");
        }
        data[(int) byteOffset] ^= (byte) (1 << bit);
    }

    synchronized MemInode afterCrash(Random random, boolean garbage) {
        int kept = syncedLength;
        if (random != null && length > syncedLength) {
            kept += random.nextInt(length - syncedLength + 1);
        }
        MemInode copy = new MemInode();
        copy.data = Arrays.copyOf(data, kept);
        for (int i = syncedLength; garbage && i < kept; i++) {
            if (random.nextInt(8) == 0) {
                copy.data[i] = (byte) random.nextInt(256);
            }
        }
        copy.length = kept;
        copy.syncedLength = kept;
        return copy;
    }
}
