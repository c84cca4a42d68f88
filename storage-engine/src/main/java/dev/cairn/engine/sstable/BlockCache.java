package dev.cairn.engine.sstable;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Data blocks of open SSTables, shared by all readers, bounded by bytes. Keys are
 * {@code (fileNumber, blockOffset)}; file numbers are never reused, so a block never goes stale,
 * and {@link #invalidateFile} only returns the memory of deleted files early.
 *
 * <p>Split into up to 16 shards, each an access-ordered {@link LinkedHashMap} under its own lock
 * that evicts its least recently used blocks once over its share of the capacity; the sum of the
 * shares never exceeds the capacity. A block charges its contents plus a fixed overhead. A
 * capacity of 0 disables the cache: lookups miss and insertions are dropped. Thread-safe.
 */
public final class BlockCache {
    private static final int MAX_SHARDS = 16;
    /** Shards smaller than this would evict blocks that a single shard could have kept. */
    private static final long MIN_SHARD_BYTES = 1L << 20;

    private final long capacity;
    private final Shard[] shards;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();

    public BlockCache(long capacityBytes) {
        if (capacityBytes < 0) {
            throw new IllegalArgumentException("block cache capacity must not be negative, got " + capacityBytes);
        }
        this.capacity = capacityBytes;
        int count = 1;
        while (count < MAX_SHARDS && capacityBytes / (count * 2L) >= MIN_SHARD_BYTES) {
            count *= 2;
        }
        shards = new Shard[count];
        for (int i = 0; i < count; i++) {
            shards[i] = new Shard(capacityBytes / count);
        }
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
        long used = 0;
        for (Shard shard : shards) {
            used += shard.used();
        }
        return used;
    }

    /** Drops every block of the file. */
    public void invalidateFile(long fileNumber) {
        for (Shard shard : shards) {
            shard.invalidate(fileNumber);
        }
    }

    Block get(long fileNumber, long blockOffset) {
        Block block = capacity == 0 ? null : shard(fileNumber, blockOffset).get(new Key(fileNumber, blockOffset));
        (block == null ? misses : hits).increment();
        return block;
    }

    void put(long fileNumber, long blockOffset, Block block) {
        if (capacity > 0) {
            shard(fileNumber, blockOffset).put(new Key(fileNumber, blockOffset), block);
        }
    }

    private Shard shard(long fileNumber, long blockOffset) {
        long h = (fileNumber * 0x9E3779B97F4A7C15L) ^ blockOffset;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return shards[(int) h & (shards.length - 1)];
    }

    private record Key(long fileNumber, long blockOffset) {
    }

    private final class Shard {
        private final long capacity;
        private final LinkedHashMap<Key, Block> blocks = new LinkedHashMap<>(16, 0.75f, true);
        private long used;

        Shard(long capacity) {
            this.capacity = capacity;
        }

        synchronized long used() {
            return used;
        }

        synchronized Block get(Key key) {
            return blocks.get(key);
        }

        synchronized void put(Key key, Block block) {
            long charge = block.chargeBytes();
            if (charge > capacity) {
                return;
            }
            Block previous = blocks.put(key, block);
            if (previous != null) {
                used -= previous.chargeBytes();
            }
            used += charge;
            Iterator<Map.Entry<Key, Block>> eldest = blocks.entrySet().iterator();
            while (used > capacity) {
                Map.Entry<Key, Block> e = eldest.next();
                used -= e.getValue().chargeBytes();
                eldest.remove();
                evictions.increment();
            }
        }

        synchronized void invalidate(long fileNumber) {
            Iterator<Map.Entry<Key, Block>> it = blocks.entrySet().iterator();
            while (it.hasNext()) {
                Map.Entry<Key, Block> e = it.next();
                if (e.getKey().fileNumber() == fileNumber) {
                    used -= e.getValue().chargeBytes();
                    it.remove();
                }
            }
        }
    }
}
