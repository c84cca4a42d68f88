package dev.cairn.engine;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The knobs of a {@link TieredCache}, each with one default written here. Build with
 * {@link #builder(Path)}; invalid values fail at {@link Builder#build()} naming the option.
 */
public final class TieredCacheOptions {

    /** The default value of {@link #memoryBytes()}: 256 MiB. */
    public static final long DEFAULT_MEMORY_BYTES = 256L << 20;
    /** The default value of {@link #ssdBytes()}: 0, memory only. */
    public static final long DEFAULT_SSD_BYTES = 0;
    /** The default value of {@link #segmentBytes()}: 64 MiB. */
    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
    /** The smallest {@link #segmentBytes()}: 4 KiB. */
    public static final long MIN_SEGMENT_BYTES = 4096;

    private final Path directory;
    private final long memoryBytes;
    private final long ssdBytes;
    private final long segmentBytes;

    private TieredCacheOptions(Builder b) {
        directory = b.directory;
        memoryBytes = b.memoryBytes;
        ssdBytes = b.ssdBytes;
        segmentBytes = b.segmentBytes;
    }

    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    /** Where the SSD tier keeps its segment files; nothing else may live there. Unused without an SSD tier. */
    public Path directory() {
        return directory;
    }

    /** The memory tier's bound: keys, values and a fixed overhead per entry. The default value is 256 MiB. */
    public long memoryBytes() {
        return memoryBytes;
    }

    /** The SSD tier's bound in segment bytes; 0 means no SSD tier. The default value is 0. */
    public long ssdBytes() {
        return ssdBytes;
    }

    /**
     * The size of one SSD segment file, the unit of eviction; {@link #ssdBytes()} must hold two.
     * The default value is 64 MiB.
     */
    public long segmentBytes() {
        return segmentBytes;
    }

    /** Not thread-safe. */
    public static final class Builder {
        private final Path directory;
        private long memoryBytes = DEFAULT_MEMORY_BYTES;
        private long ssdBytes = DEFAULT_SSD_BYTES;
        private long segmentBytes = DEFAULT_SEGMENT_BYTES;

        private Builder(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
        }

        public Builder memoryBytes(long value) {
            memoryBytes = value;
            return this;
        }

        public Builder ssdBytes(long value) {
            ssdBytes = value;
            return this;
        }

        public Builder segmentBytes(long value) {
            segmentBytes = value;
            return this;
        }

        public TieredCacheOptions build() {
            if (memoryBytes < 1024) {
                throw new IllegalArgumentException("memoryBytes must be at least 1024: " + memoryBytes);
            }
            if (segmentBytes < MIN_SEGMENT_BYTES) {
                throw new IllegalArgumentException("segmentBytes must be at least " + MIN_SEGMENT_BYTES + ": " + segmentBytes);
            }
            if (ssdBytes != 0 && ssdBytes < 2 * segmentBytes) {
                throw new IllegalArgumentException("ssdBytes must be 0 or hold two segments (" + 2 * segmentBytes
                        + "): " + ssdBytes);
            }
            return new TieredCacheOptions(this);
        }
    }
}
