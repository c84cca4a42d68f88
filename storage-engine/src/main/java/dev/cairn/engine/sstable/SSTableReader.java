package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableFormat.*;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Entry;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.ReadableFile;
import dev.cairn.engine.util.Checksums;
import java.io.EOFException;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An open SSTable. {@link #open} reads and verifies the footer, index, filter and properties
 * blocks once and keeps them in memory, so a point lookup does at most one read of the file
 * (one data block, or its aligned run while the cache has room), and none when the
 * {@link BlockCache} holds the block. Every block read is checked against its
 * crc32c; a mismatch throws {@link CorruptionException} naming the file and the block offset.
 * Thread-safe: any number of threads may read at once; {@link #close()} must come after the last
 * read (later reads fail with an {@link IOException} unless their block is cached).
 */
public final class SSTableReader implements AutoCloseable {
    /** Data blocks a point lookup's miss reads at once while the block cache has room (64 KiB of 4 KiB blocks). */
    static final int PREFETCH_BLOCKS = 16;

    private final Path path;
    private final String fileName;
    private final long fileNumber;
    private final ReadableFile file;
    private final BlockCache cache;
    private final Footer footer;
    private final byte[][] separators;
    private final long[] blockOffsets;
    private final int[] blockSizes;
    private final BloomFilter filter;
    private final TableProperties properties;
    private final long memoryBytes;
    private volatile boolean closed;

    private SSTableReader(Path path, long fileNumber, ReadableFile file, BlockCache cache) throws IOException {
        this.path = path;
        this.fileName = path.toString();
        this.fileNumber = fileNumber;
        this.file = file;
        this.cache = cache == null ? new BlockCache(0) : cache;
        long fileSize = file.size();
        if (fileSize < FOOTER_BYTES) {
            throw new CorruptionException("corrupt SSTable " + fileName + ": " + fileSize
                    + " bytes is too short for the footer at offset 0");
        }
        footer = Footer.decode(readFully(fileSize - FOOTER_BYTES, FOOTER_BYTES), fileSize, fileName);

        Block index = Block.parse(readBlock(footer.index()), footer.index().offset(), fileName);
        List<byte[]> keys = new ArrayList<>();
        List<BlockHandle> handles = new ArrayList<>();
        Block.Cursor cursor = index.cursor(fileName);
        long indexKeyBytes = 0;
        for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
            BlockHandle handle = decodeHandle(cursor.value(), footer.index().offset());
            long expectedOffset = handles.isEmpty() ? 0 : handles.get(handles.size() - 1).end();
            if (handle.offset() != expectedOffset || handle.end() > footer.filter().offset()) {
                throw Block.corrupt(fileName, footer.index().offset(), "data block handle " + handle + " out of place");
            }
            keys.add(cursor.key());
            handles.add(handle);
            indexKeyBytes += cursor.key().length;
        }
        if (handles.isEmpty() || handles.get(handles.size() - 1).end() != footer.filter().offset()) {
            throw Block.corrupt(fileName, footer.index().offset(), "index does not cover the data blocks");
        }
        separators = keys.toArray(new byte[0][]);
        blockOffsets = new long[handles.size()];
        blockSizes = new int[handles.size()];
        for (int i = 0; i < handles.size(); i++) {
            blockOffsets[i] = handles.get(i).offset();
            blockSizes[i] = handles.get(i).size();
        }

        byte[] filterContents = readBlock(footer.filter());
        if (filterContents.length == 0) {
            filter = null;
        } else {
            filter = BloomFilter.decode(filterContents);
            if (filter == null) {
                throw Block.corrupt(fileName, footer.filter().offset(), "malformed bloom filter");
            }
        }

        try {
            properties = PropertiesCodec.decode(readBlock(footer.properties()), fileSize);
        } catch (IllegalArgumentException e) {
            throw Block.corrupt(fileName, footer.properties().offset(), "malformed properties: " + e.getMessage());
        }
        if (properties.dataBlockCount() != separators.length) {
            throw Block.corrupt(fileName, footer.index().offset(), "index lists " + separators.length
                    + " data blocks, properties say " + properties.dataBlockCount());
        }
        memoryBytes = indexKeyBytes + 28L * separators.length
                + (filter == null ? 0 : filter.sizeBytes())
                + properties.smallestKey().length + properties.largestKey().length + 512;
    }

    /**
     * Opens a table and verifies its footer, index, filter and properties blocks.
     *
     * @param fileNumber the table's number, unique for the life of the engine: the cache key
     * @param cache      shared data block cache; null reads every block from the file
     * @throws CorruptionException if any of them is damaged
     * @throws IOException         if the table's format version is newer than this code reads
     */
    public static SSTableReader open(FileSystem fs, Path path, long fileNumber, BlockCache cache) throws IOException {
        ReadableFile file = fs.openRead(path);
        try {
            return new SSTableReader(path, fileNumber, file, cache);
        } catch (IOException | RuntimeException e) {
            try {
                file.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public long fileNumber() {
        return fileNumber;
    }

    public TableProperties properties() {
        return properties;
    }

    /** Bytes this reader keeps in memory (index, filter, properties), outside the block cache. */
    public long memoryBytes() {
        return memoryBytes;
    }

    /**
     * False when no key whose {@link InternalKeys#filterKey} equals {@code filterKey} is in the
     * table; true when one may be (always, for a table written without a filter).
     */
    public boolean mayContain(byte[] filterKey) {
        return filter == null || filter.mayContain(filterKey);
    }

    /**
     * The first entry whose key is at or after {@code internalKey}, or null if none. Reads at
     * most one data block.
     *
     * @param fillCache whether a block read from the file goes into the cache
     */
    public Entry seekFirstAtOrAfter(byte[] internalKey, boolean fillCache) throws IOException {
        for (int i = findBlock(internalKey); i < separators.length; i++) {
            Block.Cursor cursor = pointLookupBlock(i, fillCache).cursor(fileName);
            cursor.seek(internalKey);
            if (cursor.valid()) {
                return new Entry(cursor.key(), cursor.value());
            }
        }
        return null;
    }

    /** A new iterator, unpositioned; for one thread. */
    public TableIterator iterator(boolean fillCache) {
        return new TableIterator(this, fillCache);
    }

    @Override
    public void close() throws IOException {
        closed = true;
        file.close();
    }

    int dataBlockCount() {
        return separators.length;
    }

    byte[] separator(int block) {
        return separators[block];
    }

    BlockHandle dataBlockHandle(int block) {
        return new BlockHandle(blockOffsets[block], blockSizes[block]);
    }

    Footer footer() {
        return footer;
    }

    BloomFilter filter() {
        return filter;
    }

    String fileName() {
        return fileName;
    }

    /** Index of the first data block whose separator is at or after {@code key}; count if none. */
    int findBlock(byte[] key) {
        int lo = 0;
        int hi = separators.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (InternalKeys.COMPARATOR.compare(separators[mid], key) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    Block dataBlock(int index, boolean fillCache) throws IOException {
        Block block = cache.get(fileNumber, blockOffsets[index]);
        return block != null ? block : readDataBlock(index, fillCache);
    }

    /**
     * A data block for a point lookup. On a miss while the cache has room, the aligned run of
     * {@link #PREFETCH_BLOCKS} blocks around it is read in one read and cached whole: right after
     * an open the cache is empty, and a cold lookup would otherwise pay a device read for its
     * index block on top of the one for its value until nearly every block had been missed once.
     * Once the cache is full, a miss reads its block alone, so prefetching never evicts.
     */
    Block pointLookupBlock(int index, boolean fillCache) throws IOException {
        Block block = cache.get(fileNumber, blockOffsets[index]);
        if (block != null) {
            return block;
        }
        int first = index - index % PREFETCH_BLOCKS;
        int end = Math.min(separators.length, first + PREFETCH_BLOCKS);
        long from = blockOffsets[first];
        long to = blockOffsets[end - 1] + blockSizes[end - 1] + BLOCK_TRAILER_BYTES;
        if (!fillCache || end - first == 1 || !cache.hasRoomFor(2 * (to - from))) {
            return readDataBlock(index, fillCache);
        }
        byte[] run = readFully(from, (int) (to - from));
        Block wanted = null;
        for (int b = first; b < end; b++) {
            BlockHandle handle = new BlockHandle(blockOffsets[b], blockSizes[b]);
            Block parsed;
            try {
                parsed = Block.parse(verified(run, (int) (handle.offset() - from), handle), handle.offset(), fileName);
            } catch (CorruptionException e) {
                if (b == index) {
                    throw e;
                }
                continue; // a damaged neighbour fails its own lookups, not this one
            }
            cache.putIfAbsent(fileNumber, handle.offset(), parsed);
            if (b == index) {
                wanted = parsed;
            }
        }
        return wanted;
    }

    private Block readDataBlock(int index, boolean fillCache) throws IOException {
        long offset = blockOffsets[index];
        Block block = Block.parse(readBlock(new BlockHandle(offset, blockSizes[index])), offset, fileName);
        if (fillCache) {
            cache.put(fileNumber, offset, block);
        }
        return block;
    }

    /** The verified contents of a block, without its trailer. */
    private byte[] readBlock(BlockHandle handle) throws IOException {
        return verified(readFully(handle.offset(), handle.size() + BLOCK_TRAILER_BYTES), 0, handle);
    }

    /** The contents of the block at {@code at} in {@code bytes} (read from the handle's offset on), checked. */
    private byte[] verified(byte[] bytes, int at, BlockHandle handle) throws CorruptionException {
        int size = handle.size();
        int stored = ByteBuffer.wrap(bytes, at + size + 1, 4).getInt();
        int actual = Checksums.crc32c(bytes, at, size + 1);
        if (stored != actual) {
            throw Block.corrupt(fileName, handle.offset(), "checksum mismatch (stored 0x"
                    + Integer.toHexString(stored) + ", computed 0x" + Integer.toHexString(actual) + ")");
        }
        if (bytes[at + size] != COMPRESSION_NONE) {
            throw Block.corrupt(fileName, handle.offset(), "unknown compression type " + (bytes[at + size] & 0xFF));
        }
        return at == 0 && size == bytes.length ? bytes : Arrays.copyOfRange(bytes, at, at + size);
    }

    private byte[] readFully(long offset, int length) throws IOException {
        if (closed) {
            throw new IOException("SSTable " + fileName + " is closed");
        }
        try {
            return file.readFully(offset, length);
        } catch (EOFException e) {
            throw new CorruptionException("corrupt SSTable " + fileName + ": truncated at offset " + offset
                    + " (" + e.getMessage() + ")");
        }
    }

    private BlockHandle decodeHandle(byte[] encoded, long indexOffset) throws CorruptionException {
        try {
            ByteBuffer in = ByteBuffer.wrap(encoded);
            BlockHandle handle = BlockHandle.readVarints(in);
            if (in.hasRemaining() || handle.size() < 4) {
                throw new IllegalArgumentException("bad handle");
            }
            return handle;
        } catch (IllegalArgumentException | BufferUnderflowException e) {
            throw Block.corrupt(fileName, indexOffset, "malformed data block handle");
        }
    }
}
