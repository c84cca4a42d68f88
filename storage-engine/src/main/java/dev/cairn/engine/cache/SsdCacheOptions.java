package dev.cairn.engine.cache;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * The knobs of an {@link SsdCache}, each with one default written here. Build with
 * {@link #builder(Path)}; invalid values fail at {@link Builder#build()} naming the option.
 */
public final class SsdCacheOptions {

    /** The default value of {@link #segmentBytes()}: 64 MiB. */
    public static final long DEFAULT_SEGMENT_BYTES = 64L << 20;
    /** The default value of {@link #capacityBytes()}: 4 GiB. */
    public static final long DEFAULT_CAPACITY_BYTES = 4L << 30;
    /** The default value of {@link #writeBufferBytes()}: 16 KiB, as in the hybrid-store paper's design (docs/references.md). */
    public static final int DEFAULT_WRITE_BUFFER_BYTES = 16 << 10;
    /** The default value of {@link #gcGarbageRatio()}: 0.5. */
    public static final double DEFAULT_GC_GARBAGE_RATIO = 0.5;
    /** The default value of {@link #admission()}. */
    public static final SsdAdmission DEFAULT_ADMISSION = SsdAdmission.SECOND_ACCESS;
    /** The default value of {@link #doorkeeperWindow()}: 1,048,576 keys (1 MiB of bits). */
    public static final long DEFAULT_DOORKEEPER_WINDOW = 1L << 20;
    /** The default value of {@link #recovery()}. */
    public static final SsdRecovery DEFAULT_RECOVERY = SsdRecovery.REBUILD;

    public static final long MIN_SEGMENT_BYTES = 4096;
    private static final long MAX_SEGMENT_BYTES = 1L << 30;

    private final Path directory;
    private final FileSystem fileSystem;
    private final long segmentBytes;
    private final long capacityBytes;
    private final int writeBufferBytes;
    private final double gcGarbageRatio;
    private final SsdAdmission admission;
    private final long doorkeeperWindow;
    private final SsdRecovery recovery;
    private final Executor gcExecutor;

    private SsdCacheOptions(Builder b) {
        directory = b.directory;
        fileSystem = b.fileSystem;
        segmentBytes = b.segmentBytes;
        capacityBytes = b.capacityBytes;
        writeBufferBytes = b.writeBufferBytes;
        gcGarbageRatio = b.gcGarbageRatio;
        admission = b.admission;
        doorkeeperWindow = b.doorkeeperWindow;
        recovery = b.recovery;
        gcExecutor = b.gcExecutor;
    }

    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    /** The directory of the segment files, on the fast tier. Nothing else may live in it. */
    public Path directory() {
        return directory;
    }

    /** The file system of all cache I/O. The default is the real disk. */
    public FileSystem fileSystem() {
        return fileSystem;
    }

    /**
     * The size a segment grows to before the next one starts; the unit of garbage collection and
     * of eviction. Each segment's size is reserved when it starts, without writing zeros (see
     * docs/format/ssd-cache-segment.md). The default value is 64 MiB.
     */
    public long segmentBytes() {
        return segmentBytes;
    }

    /**
     * The most bytes of segments kept. When a new segment would exceed it, the oldest segment is
     * dropped whole (FIFO): no device writes to evict, and garbage collection keeps live entries
     * of garbage-heavy segments moving forward. At least two segments. The default value is 4 GiB.
     */
    public long capacityBytes() {
        return capacityBytes;
    }

    /** The write buffer in front of the active segment, readable before it is flushed. The default value is 16 KiB. */
    public int writeBufferBytes() {
        return writeBufferBytes;
    }

    /**
     * The garbage ratio (dead bytes ÷ entry bytes) at which a sealed segment is collected: its
     * live entries are copied to the active segment and it is deleted. The default value is 0.5.
     */
    public double gcGarbageRatio() {
        return gcGarbageRatio;
    }

    /** Which offered entries are written. The default value is {@link SsdAdmission#SECOND_ACCESS}. */
    public SsdAdmission admission() {
        return admission;
    }

    /** How many distinct keys the second-access doorkeeper remembers before it resets. The default value is 1,048,576. */
    public long doorkeeperWindow() {
        return doorkeeperWindow;
    }

    /** What opening does with existing segments. The default value is {@link SsdRecovery#REBUILD}. */
    public SsdRecovery recovery() {
        return recovery;
    }

    /** Where garbage collection runs; null (the default) means a thread owned by the cache. */
    public Executor gcExecutor() {
        return gcExecutor;
    }

    /** Not thread-safe. */
    public static final class Builder {
        private final Path directory;
        private FileSystem fileSystem = new LocalFileSystem();
        private long segmentBytes = DEFAULT_SEGMENT_BYTES;
        private long capacityBytes = DEFAULT_CAPACITY_BYTES;
        private int writeBufferBytes = DEFAULT_WRITE_BUFFER_BYTES;
        private double gcGarbageRatio = DEFAULT_GC_GARBAGE_RATIO;
        private SsdAdmission admission = DEFAULT_ADMISSION;
        private long doorkeeperWindow = DEFAULT_DOORKEEPER_WINDOW;
        private SsdRecovery recovery = DEFAULT_RECOVERY;
        private Executor gcExecutor;

        private Builder(Path directory) {
            this.directory = Objects.requireNonNull(directory, "directory");
        }

        public Builder fileSystem(FileSystem value) {
            fileSystem = Objects.requireNonNull(value, "fileSystem");
            return this;
        }

        public Builder segmentBytes(long value) {
            segmentBytes = value;
            return this;
        }

        public Builder capacityBytes(long value) {
            capacityBytes = value;
            return this;
        }

        public Builder writeBufferBytes(int value) {
            writeBufferBytes = value;
            return this;
        }

        public Builder gcGarbageRatio(double value) {
            gcGarbageRatio = value;
            return this;
        }

        public Builder admission(SsdAdmission value) {
            admission = Objects.requireNonNull(value, "admission");
            return this;
        }

        public Builder doorkeeperWindow(long value) {
            doorkeeperWindow = value;
            return this;
        }

        public Builder recovery(SsdRecovery value) {
            recovery = Objects.requireNonNull(value, "recovery");
            return this;
        }

        public Builder gcExecutor(Executor value) {
            gcExecutor = value;
            return this;
        }

        public SsdCacheOptions build() {
            if (segmentBytes < MIN_SEGMENT_BYTES || segmentBytes > MAX_SEGMENT_BYTES) {
                throw new IllegalArgumentException("segmentBytes must be in [" + MIN_SEGMENT_BYTES + ", "
                        + MAX_SEGMENT_BYTES + "]: " + segmentBytes);
            }
            if (capacityBytes < 2 * segmentBytes) {
                throw new IllegalArgumentException("capacityBytes must hold at least two segments ("
                        + 2 * segmentBytes + "): " + capacityBytes);
            }
            if (writeBufferBytes < 256 || writeBufferBytes > segmentBytes) {
                throw new IllegalArgumentException("writeBufferBytes must be in [256, segmentBytes]: " + writeBufferBytes);
            }
            if (!(gcGarbageRatio > 0 && gcGarbageRatio <= 1)) {
                throw new IllegalArgumentException("gcGarbageRatio must be in (0, 1]: " + gcGarbageRatio);
            }
            if (doorkeeperWindow < 1 || doorkeeperWindow > (1L << 30)) {
                throw new IllegalArgumentException("doorkeeperWindow must be in [1, 2^30]: " + doorkeeperWindow);
            }
            return new SsdCacheOptions(this);
        }
    }
}
