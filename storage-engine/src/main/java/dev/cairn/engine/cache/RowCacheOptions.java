package dev.cairn.engine.cache;

import java.util.concurrent.Executor;

/**
 * The knobs of a {@link RowCache}, each with one default written here. Build with
 * {@link #builder()}; invalid values fail at {@link Builder#build()} naming the option.
 */
public final class RowCacheOptions {

    /** The default value of {@link #memoryBytes()}: 256 MiB. */
    public static final long DEFAULT_MEMORY_BYTES = 256L << 20;
    /** The default value of {@link #cascadeQueueEntries()}: 4096. */
    public static final int DEFAULT_CASCADE_QUEUE_ENTRIES = 4096;
    /** Bytes charged per memory entry on top of its key and value: object headers, map node, policy. */
    public static final int MEMORY_ENTRY_OVERHEAD_BYTES = 96;

    private final long memoryBytes;
    private final int cascadeQueueEntries;
    private final Executor cascadeExecutor;

    private RowCacheOptions(Builder b) {
        memoryBytes = b.memoryBytes;
        cascadeQueueEntries = b.cascadeQueueEntries;
        cascadeExecutor = b.cascadeExecutor;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The memory tier's bound: keys, values and {@link #MEMORY_ENTRY_OVERHEAD_BYTES} per entry.
     * The default value is 256 MiB.
     */
    public long memoryBytes() {
        return memoryBytes;
    }

    /**
     * How many entries evicted from memory may wait to be written to the SSD tier; when full,
     * further evictions are dropped rather than slowing anyone down. The default value is 4096.
     */
    public int cascadeQueueEntries() {
        return cascadeQueueEntries;
    }

    /** Where cascades to the SSD tier are written; null (the default) means a thread owned by the cache. */
    public Executor cascadeExecutor() {
        return cascadeExecutor;
    }

    /** Not thread-safe. */
    public static final class Builder {
        private long memoryBytes = DEFAULT_MEMORY_BYTES;
        private int cascadeQueueEntries = DEFAULT_CASCADE_QUEUE_ENTRIES;
        private Executor cascadeExecutor;

        private Builder() {
        }

        public Builder memoryBytes(long value) {
            memoryBytes = value;
            return this;
        }

        public Builder cascadeQueueEntries(int value) {
            cascadeQueueEntries = value;
            return this;
        }

        public Builder cascadeExecutor(Executor value) {
            cascadeExecutor = value;
            return this;
        }

        public RowCacheOptions build() {
            if (memoryBytes < 1024) {
                throw new IllegalArgumentException("memoryBytes must be at least 1024: " + memoryBytes);
            }
            if (cascadeQueueEntries < 1) {
                throw new IllegalArgumentException("cascadeQueueEntries must be positive: " + cascadeQueueEntries);
            }
            return new RowCacheOptions(this);
        }
    }
}
