package dev.cairn.engine.sstable;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.util.concurrent.atomic.LongAdder;

/**
 * Data blocks of open SSTables, shared by all readers, bounded by bytes. Keys are
 * {@code (fileNumber, blockOffset)}; file numbers are never reused, so a block never goes stale,
 * and {@link #invalidateFile} only returns the memory of deleted files early.
 *
 * <p>A Caffeine cache (W-TinyLFU) weighed by each block's contents plus a fixed overhead. Eviction
 * runs on the calling thread, so the bytes held stay within the capacity once a call returns.
 * A capacity of 0 disables the cache: lookups miss and insertions are dropped. Thread-safe.
 */
public final class BlockCache {
    private final long capacity;
    private final Cache<Key, Block> blocks;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();

    public BlockCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("block cache capacity must not be negative, got " + capacityBytes);
        }
        this.capacity = capacityBytes;
        this.blocks = Caffeine.newBuilder()
                .maximumWeight(capacityBytes)
                .weigher((Key k, Block b) -> (int) Math.min(Integer.MAX_VALUE, b.chargeBytes()))
                .executor(Runnable::run)
                .evictionListener((Key k, Block b, RemovalCause cause) -> evictions.increment())
                .build();
    }

    public long capacity() {
        return capacity;
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    public long evictions() {
        return evictions.sum();
    }

    /** Bytes charged by the blocks held now; never more than {@link #capacity()}. */
    public long usedBytes() {
        blocks.cleanUp();
        return blocks.policy().eviction().orElseThrow().weightedSize().orElseThrow();
    }

    /** Drops every block of the file. */
    public void invalidateFile(long fileNumber) {
        blocks.asMap().keySet().removeIf(key -> key.fileNumber() == fileNumber);
    }

    Block get(long fileNumber, long blockOffset) {
        Block block = capacity == 0 ? null : blocks.getIfPresent(new Key(fileNumber, blockOffset));
        (block == null ? misses : hits).increment();
        return block;
    }

    /** Whether {@code bytes} more would fit without evicting anything. */
    boolean hasRoomFor(long bytes) {
        if (capacity == 0) {
            return false;
        }
        long used = blocks.policy().eviction().orElseThrow().weightedSize().orElse(capacity);
        return capacity - used >= bytes;
    }

    /** Caches a block unless one is already cached at that place (read ahead of need: no hit or miss counted). */
    void putIfAbsent(long fileNumber, long blockOffset, Block block) {
        if (capacity > 0 && block.chargeBytes() <= capacity) {
            blocks.asMap().putIfAbsent(new Key(fileNumber, blockOffset), block);
        }
    }

    void put(long fileNumber, long blockOffset, Block block) {
        if (capacity > 0 && block.chargeBytes() <= capacity) {
            blocks.put(new Key(fileNumber, blockOffset), block);
        }
    }

    private record Key(long fileNumber, long blockOffset) {
    }
}
