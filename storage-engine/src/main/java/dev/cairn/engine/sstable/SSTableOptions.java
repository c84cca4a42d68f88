package dev.cairn.engine.sstable;

/**
 * How an {@link SSTableWriter} lays out a table. Each default is written once, here. Invalid
 * values fail at construction with a message naming the option. Immutable and thread-safe.
 *
 * @param blockBytes      target uncompressed size of a data block; a block is cut once it
 *                        reaches this size, so blocks are slightly larger. Smaller blocks make
 *                        point lookups read less; larger ones compress index memory. The default
 *                        is {@value #DEFAULT_BLOCK_BYTES}.
 * @param bloomBitsPerKey bloom filter bits per distinct filter key; 10 gives about 1% false
 *                        positives, 0 writes no filter. The default is
 *                        {@value #DEFAULT_BLOOM_BITS_PER_KEY}.
 * @param restartInterval entries between restart points inside a data block. Fewer means faster
 *                        seeks in a block and less prefix compression. The default is
 *                        {@value #DEFAULT_RESTART_INTERVAL}.
 */
public record SSTableOptions(int blockBytes, int bloomBitsPerKey, int restartInterval) {

    public static final int DEFAULT_BLOCK_BYTES = 4096;
    public static final int DEFAULT_BLOOM_BITS_PER_KEY = 10;
    public static final int DEFAULT_RESTART_INTERVAL = 16;

    /** All defaults. */
    public static final SSTableOptions DEFAULTS = builder().build();

    public SSTableOptions {
        require(blockBytes >= 256 && blockBytes <= (1 << 20), "blockBytes must be in [256, 1 MiB], got " + blockBytes);
        require(bloomBitsPerKey >= 0 && bloomBitsPerKey <= 64,
                "bloomBitsPerKey must be in [0, 64], got " + bloomBitsPerKey);
        require(restartInterval >= 1 && restartInterval <= 1024,
                "restartInterval must be in [1, 1024], got " + restartInterval);
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().blockBytes(blockBytes).bloomBitsPerKey(bloomBitsPerKey).restartInterval(restartInterval);
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException("invalid SSTable option: " + message);
        }
    }

    /** Not thread-safe. */
    public static final class Builder {
        private int blockBytes = DEFAULT_BLOCK_BYTES;
        private int bloomBitsPerKey = DEFAULT_BLOOM_BITS_PER_KEY;
        private int restartInterval = DEFAULT_RESTART_INTERVAL;

        private Builder() {
        }

        public Builder blockBytes(int v) { blockBytes = v; return this; }
        public Builder bloomBitsPerKey(int v) { bloomBitsPerKey = v; return this; }
        public Builder restartInterval(int v) { restartInterval = v; return this; }

        public SSTableOptions build() {
            return new SSTableOptions(blockBytes, bloomBitsPerKey, restartInterval);
        }
    }
}
