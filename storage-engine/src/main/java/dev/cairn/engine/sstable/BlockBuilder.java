package dev.cairn.engine.sstable;

import dev.cairn.engine.util.Varint;
import java.util.Arrays;

/**
 * Builds the contents of one block: entries with prefix-compressed keys, then the restart array.
 * Each entry is {@code shared varint | unshared varint | value length varint | key[shared..] |
 * value}; every {@code restartInterval}-th entry stores its whole key ({@code shared = 0}) and its
 * offset goes into the restart array, so a reader can binary-search the restarts. The array is
 * {@code u32 big-endian} offsets followed by their count as {@code u32}. DO NOT CHANGE the
 * encoding: embedded in on-disk data. Not thread-safe.
 */
final class BlockBuilder {
    private final int restartInterval;
    private byte[] buf = new byte[256];
    private int size;
    private int[] restarts = new int[8];
    private int restartCount;
    private int sinceRestart;
    private byte[] lastKey = new byte[0];
    private int entryCount;

    BlockBuilder(int restartInterval) {
        this.restartInterval = restartInterval;
    }

    /** REQUIRES: {@code key} sorts after every key added since the last {@link #reset()}. */
    void add(byte[] key, byte[] value) {
        int shared = 0;
        if (sinceRestart < restartInterval && entryCount > 0) {
            shared = Arrays.mismatch(lastKey, key);
            if (shared < 0) {
                shared = key.length;
            }
            shared = Math.min(shared, Math.min(lastKey.length, key.length));
        } else {
            addRestart(size);
            sinceRestart = 0;
        }
        int unshared = key.length - shared;
        ensure(3 * 5 + unshared + value.length);
        size = Varint.putLong(buf, size, shared);
        size = Varint.putLong(buf, size, unshared);
        size = Varint.putLong(buf, size, value.length);
        System.arraycopy(key, shared, buf, size, unshared);
        size += unshared;
        System.arraycopy(value, 0, buf, size, value.length);
        size += value.length;
        lastKey = key;
        sinceRestart++;
        entryCount++;
    }

    /** The size {@link #finish()} would return now. */
    int estimatedSize() {
        return size + 4 * restartCount + 4;
    }

    boolean isEmpty() {
        return entryCount == 0;
    }

    int entryCount() {
        return entryCount;
    }

    /** The block's contents; the builder must be {@link #reset()} before reuse. */
    byte[] finish() {
        ensure(4 * restartCount + 4);
        for (int i = 0; i < restartCount; i++) {
            putInt(restarts[i]);
        }
        putInt(restartCount);
        return Arrays.copyOf(buf, size);
    }

    void reset() {
        size = 0;
        restartCount = 0;
        sinceRestart = 0;
        entryCount = 0;
        lastKey = new byte[0];
    }

    private void addRestart(int offset) {
        if (restartCount == restarts.length) {
            restarts = Arrays.copyOf(restarts, restartCount * 2);
        }
        restarts[restartCount++] = offset;
    }

    private void ensure(int more) {
        if (size + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
        }
    }

    private void putInt(int v) {
        buf[size++] = (byte) (v >>> 24);
        buf[size++] = (byte) (v >>> 16);
        buf[size++] = (byte) (v >>> 8);
        buf[size++] = (byte) v;
    }
}
