package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableFormat.*;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.WritableFile;
import dev.cairn.engine.fs.WriteLifetime;
import dev.cairn.engine.util.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes one SSTable (layout in docs/format/sstable.md): data blocks as entries arrive, then the
 * filter, properties and index blocks and the footer at {@link #finish()}. The file is complete
 * and durable only once {@code finish()} returns; until then, or if anything fails, the caller
 * must {@link #abandon()} it. A table holds at least one entry: {@code finish()} refuses an empty
 * one. Not thread-safe: one thread adds and finishes.
 */
public final class SSTableWriter {
    private enum State { OPEN, FAILED, FINISHED, ABANDONED }

    private final FileSystem fs;
    private final Path path;
    private final SSTableOptions options;
    private final WriteThrottle throttle;
    private final WritableFile file;
    private final BlockBuilder dataBlock;
    private final BlockBuilder indexBlock = new BlockBuilder(1);
    /** The last flushed data block, whose index entry waits for the next key to shorten its separator. */
    private BlockHandle pendingHandle;
    private State state = State.OPEN;

    private long[] filterHashes = new long[256];
    private int filterKeyCount;
    private byte[] smallestKey;
    private byte[] lastKey;
    private long entryCount;
    private long deletionCount;
    private long valuePointerCount;
    private long smallestSequence = Long.MAX_VALUE;
    private long largestSequence = Long.MIN_VALUE;
    private long rawKeyBytes;
    private long rawValueBytes;
    private long dataBlockCount;
    private long dataBytes;

    /** A writer whose appends are not throttled (flushes). */
    public SSTableWriter(FileSystem fs, Path path, WriteLifetime lifetime, SSTableOptions options) throws IOException {
        this(fs, path, lifetime, options, WriteThrottle.NONE);
    }

    /** A writer that asks {@code throttle} before each append (compactions). */
    public SSTableWriter(FileSystem fs, Path path, WriteLifetime lifetime, SSTableOptions options,
            WriteThrottle throttle) throws IOException {
        this.fs = Objects.requireNonNull(fs, "fs");
        this.path = Objects.requireNonNull(path, "path");
        this.options = Objects.requireNonNull(options, "options");
        this.throttle = Objects.requireNonNull(throttle, "throttle");
        this.dataBlock = new BlockBuilder(options.restartInterval());
        this.file = fs.create(path, Objects.requireNonNull(lifetime, "lifetime"));
    }

    public Path path() {
        return path;
    }

    /**
     * Appends an entry. The key is an internal key ({@link InternalKeys}) sorting strictly after
     * the previous one by {@link InternalKeys#COMPARATOR}; both arrays are copied or written
     * before this returns.
     *
     * @throws IllegalArgumentException if the key is out of order or too short to be an internal key
     */
    public void add(byte[] key, byte[] value) throws IOException {
        requireOpen();
        Objects.requireNonNull(value, "value");
        if (key.length < Block.MIN_KEY_BYTES) {
            throw new IllegalArgumentException("an internal key has at least " + Block.MIN_KEY_BYTES
                    + " bytes, got " + key.length);
        }
        if (lastKey != null && InternalKeys.COMPARATOR.compare(lastKey, key) >= 0) {
            throw new IllegalArgumentException("keys must be added in strictly increasing order: "
                    + InternalKeyFormat.describe(key) + " after " + InternalKeyFormat.describe(lastKey) + " in " + path);
        }
        byte[] copy = key.clone();
        if (pendingHandle != null) {
            indexBlock.add(Separators.between(lastKey, copy), pendingHandle.toVarints());
            pendingHandle = null;
        }
        if (lastKey == null || !InternalKeys.sameUserKey(lastKey, copy)) {
            addFilterKey(copy);
        }
        if (smallestKey == null) {
            smallestKey = copy;
        }
        lastKey = copy;
        long sequence = InternalKeys.sequence(copy);
        smallestSequence = Math.min(smallestSequence, sequence);
        largestSequence = Math.max(largestSequence, sequence);
        byte kind = InternalKeys.kind(copy);
        if (kind == InternalKeys.KIND_DELETE) {
            deletionCount++;
        } else if (kind == InternalKeys.KIND_VALUE_POINTER) {
            valuePointerCount++;
        }
        entryCount++;
        rawKeyBytes += copy.length;
        rawValueBytes += value.length;

        dataBlock.add(copy, value);
        if (dataBlock.estimatedSize() >= options.blockBytes()) {
            try {
                flushDataBlock();
            } catch (IOException | RuntimeException e) {
                state = State.FAILED;
                throw e;
            }
        }
    }

    public long entryCount() {
        return entryCount;
    }

    /** About the size the file would have if finished now. */
    public long estimatedSize() {
        long filterBytes = options.bloomBitsPerKey() == 0 ? 0 : (long) filterKeyCount * options.bloomBitsPerKey() / 8;
        return file.size() + (dataBlock.isEmpty() ? 0 : dataBlock.estimatedSize() + BLOCK_TRAILER_BYTES)
                + indexBlock.estimatedSize() + (lastKey == null ? 0 : 2L * lastKey.length) + filterBytes
                + 3 * BLOCK_TRAILER_BYTES + 128 + FOOTER_BYTES;
    }

    /**
     * Writes the remaining blocks and the footer, syncs and closes the file. On failure the writer
     * accepts nothing more and the caller must {@link #abandon()} it.
     *
     * @throws IllegalStateException if no entry was added
     */
    public TableProperties finish() throws IOException {
        requireOpen();
        if (entryCount == 0) {
            throw new IllegalStateException("an SSTable needs at least one entry; abandon() the writer of " + path);
        }
        try {
            return writeTail();
        } catch (IOException | RuntimeException e) {
            state = State.FAILED;
            throw e;
        }
    }

    private TableProperties writeTail() throws IOException {
        if (!dataBlock.isEmpty()) {
            flushDataBlock();
        }
        indexBlock.add(lastKey, pendingHandle.toVarints());
        pendingHandle = null;
        byte[] filter = options.bloomBitsPerKey() == 0 ? new byte[0]
                : BloomFilter.build(filterHashes, filterKeyCount, options.bloomBitsPerKey());
        BlockHandle filterHandle = writeBlock(filter);
        TableProperties properties = new TableProperties(entryCount, deletionCount, valuePointerCount, smallestKey,
                lastKey, smallestSequence, largestSequence, rawKeyBytes, rawValueBytes, dataBlockCount, dataBytes,
                filterKeyCount, System.currentTimeMillis(), 0);
        BlockHandle propertiesHandle = writeBlock(PropertiesCodec.encode(properties));
        BlockHandle indexHandle = writeBlock(indexBlock.finish());
        byte[] footer = new Footer(indexHandle, filterHandle, propertiesHandle).encode();
        throttle.acquire(footer.length);
        file.append(footer, 0, footer.length);
        file.sync();
        long fileSize = file.size();
        file.close();
        state = State.FINISHED;
        return new TableProperties(entryCount, deletionCount, valuePointerCount, smallestKey, lastKey,
                smallestSequence, largestSequence, rawKeyBytes, rawValueBytes, dataBlockCount, dataBytes,
                filterKeyCount, properties.creationTimeMillis(), fileSize);
    }

    /**
     * Closes and deletes the file; the way out after a failed {@code add} or {@code finish}. Does
     * nothing after {@link #finish()} succeeded or a first abandon.
     */
    public void abandon() throws IOException {
        if (state != State.OPEN && state != State.FAILED) {
            return;
        }
        state = State.ABANDONED;
        try {
            file.close();
        } finally {
            fs.delete(path);
        }
    }

    private void requireOpen() {
        if (state != State.OPEN) {
            throw new IllegalStateException("SSTable writer of " + path + " is " + state.name().toLowerCase());
        }
    }

    private void addFilterKey(byte[] key) {
        if (options.bloomBitsPerKey() == 0) {
            filterKeyCount++;
            return;
        }
        if (filterKeyCount == filterHashes.length) {
            filterHashes = Arrays.copyOf(filterHashes, filterKeyCount * 2);
        }
        filterHashes[filterKeyCount++] = XxHash64.hash(key, 0, key.length - InternalKeys.TRAILER_BYTES);
    }

    private void flushDataBlock() throws IOException {
        BlockHandle handle = writeBlock(dataBlock.finish());
        dataBlock.reset();
        dataBlockCount++;
        dataBytes += handle.size() + BLOCK_TRAILER_BYTES;
        pendingHandle = handle;
    }

    private BlockHandle writeBlock(byte[] contents) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(contents.length + BLOCK_TRAILER_BYTES);
        out.put(contents);
        out.put(COMPRESSION_NONE);
        out.putInt(Checksums.crc32c(out.array(), 0, contents.length + 1));
        out.flip();
        BlockHandle handle = new BlockHandle(file.size(), contents.length);
        throttle.acquire(out.remaining());
        file.append(out);
        return handle;
    }
}
