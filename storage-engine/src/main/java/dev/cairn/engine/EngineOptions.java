package dev.cairn.engine;

import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Every knob of the engine, each with one default written here and nowhere else. Build with
 * {@link #builder(Path)}; invalid values fail at {@link Builder#build()} with a message naming
 * the option.
 */
public final class EngineOptions {

    /** The default value of {@link #memtableBytes()}: 64 MiB. */
    public static final long DEFAULT_MEMTABLE_BYTES = 64L << 20;
    /** The default value of {@link #valueThreshold()}: 4 KiB. */
    public static final int DEFAULT_VALUE_THRESHOLD = 4096;
    /** The default value of {@link #blockBytes()}: 4 KiB. */
    public static final int DEFAULT_BLOCK_BYTES = 4096;
    /** The default value of {@link #blockCacheBytes()}: 256 MiB. */
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 256L << 20;
    /** The default value of {@link #syncPolicy()}. */
    public static final SyncPolicy DEFAULT_SYNC_POLICY = SyncPolicy.EVERY_WRITE;
    /** The default value of {@link #syncInterval()}: 100 ms. */
    public static final Duration DEFAULT_SYNC_INTERVAL = Duration.ofMillis(100);
    /** The default value of {@link #level0CompactionTrigger()}: 4 files. */
    public static final int DEFAULT_LEVEL0_COMPACTION_TRIGGER = 4;
    /** The default value of {@link #maxImmutableMemtables()}: 2. */
    public static final int DEFAULT_MAX_IMMUTABLE_MEMTABLES = 2;
    /** The default value of {@link #targetFileBytes()}: 32 MiB. */
    public static final long DEFAULT_TARGET_FILE_BYTES = 32L << 20;
    /** The default value of {@link #level1Bytes()}: 128 MiB. */
    public static final long DEFAULT_LEVEL1_BYTES = 128L << 20;
    /** The default value of {@link #levelSizeMultiplier()}: 10. */
    public static final int DEFAULT_LEVEL_SIZE_MULTIPLIER = 10;
    /** The default value of {@link #compactionBytesPerSecond()}: 64 MiB/s. */
    public static final long DEFAULT_COMPACTION_BYTES_PER_SECOND = 64L << 20;
    /** The default value of {@link #writeStallTimeout()}: 30 s. */
    public static final Duration DEFAULT_WRITE_STALL_TIMEOUT = Duration.ofSeconds(30);
    /** The default value of {@link #fastLevels()}: levels 0 and 1 live on the fast tier. */
    public static final int DEFAULT_FAST_LEVELS = 2;
    /** The default value of {@link #rowCacheBytes()}: 256 MiB. */
    public static final long DEFAULT_ROW_CACHE_BYTES = 256L << 20;
    /** The default value of {@link #ssdCacheBytes()}: 0, no SSD tier. */
    public static final long DEFAULT_SSD_CACHE_BYTES = 0;
    /** The default value of {@link #valueFileBytes()}: 256 MiB. */
    public static final long DEFAULT_VALUE_FILE_BYTES = 256L << 20;
    /** The default value of {@link #valueGcGarbageRatio()}: 0.5. */
    public static final double DEFAULT_VALUE_GC_GARBAGE_RATIO = 0.5;
    /** The default value of {@link #reservedDiskBytes()}: 128 MiB, room for two default memtables to flush. */
    public static final long DEFAULT_RESERVED_DISK_BYTES = 128L << 20;

    private final Path directory;
    private final Path capacityDirectory;
    private final int fastLevels;
    private final long rowCacheBytes;
    private final long ssdCacheBytes;
    private final FileSystem fileSystem;
    private final boolean createIfMissing;
    private final boolean catalogueRows;
    private final long memtableBytes;
    private final int valueThreshold;
    private final int blockBytes;
    private final long blockCacheBytes;
    private final SyncPolicy syncPolicy;
    private final Duration syncInterval;
    private final int level0CompactionTrigger;
    private final int maxImmutableMemtables;
    private final long targetFileBytes;
    private final long level1Bytes;
    private final int levelSizeMultiplier;
    private final long compactionBytesPerSecond;
    private final Duration writeStallTimeout;
    private final long valueFileBytes;
    private final double valueGcGarbageRatio;
    private final long reservedDiskBytes;

    private EngineOptions(Builder b) {
        directory = b.directory;
        capacityDirectory = b.capacityDirectory == null ? b.directory : b.capacityDirectory;
        fastLevels = b.fastLevels;
        rowCacheBytes = b.rowCacheBytes;
        ssdCacheBytes = b.ssdCacheBytes;
        fileSystem = b.fileSystem;
        createIfMissing = b.createIfMissing;
        catalogueRows = b.catalogueRows;
        memtableBytes = b.memtableBytes;
        valueThreshold = b.valueThreshold;
        blockBytes = b.blockBytes;
        blockCacheBytes = b.blockCacheBytes;
        syncPolicy = b.syncPolicy;
        syncInterval = b.syncInterval;
        level0CompactionTrigger = b.level0CompactionTrigger;
        maxImmutableMemtables = b.maxImmutableMemtables;
        targetFileBytes = b.targetFileBytes;
        level1Bytes = b.level1Bytes;
        levelSizeMultiplier = b.levelSizeMultiplier;
        compactionBytesPerSecond = b.compactionBytesPerSecond;
        writeStallTimeout = b.writeStallTimeout;
        valueFileBytes = b.valueFileBytes;
        valueGcGarbageRatio = b.valueGcGarbageRatio;
        reservedDiskBytes = b.reservedDiskBytes;
    }

    public static Builder builder(Path directory) {
        return new Builder(directory);
    }

    /** A builder holding these options, to change a few. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The engine's home and its fast tier (SSD): commit log, manifest, the young SSTable levels,
     * and everything when no {@link #capacityDirectory()} is set.
     */
    public Path directory() { return directory; }

    /**
     * The capacity tier (HDD): value files and the SSTable levels from {@link #fastLevels()} on.
     * The default is {@link #directory()} itself, so a single-disk user sets nothing.
     */
    public Path capacityDirectory() { return capacityDirectory; }

    /**
     * How many SSTable levels, counting from level 0, live on the fast tier. Young levels are
     * small, rewritten often and read most; older levels hold the bulk and change rarely.
     */
    public int fastLevels() { return fastLevels; }

    /**
     * Memory for the row cache of whole, current values (Caffeine, W-TinyLFU) in front of the
     * read path; 0 disables it. A hit costs no device read.
     */
    public long rowCacheBytes() { return rowCacheBytes; }

    /**
     * Capacity of the SSD row cache on the fast tier ({@code row-cache/} under
     * {@link #directory()}), where rows evicted from memory cascade; 0 disables it. Worth it
     * when the capacity tier is slower than the fast one; a hit costs exactly one read.
     */
    public long ssdCacheBytes() { return ssdCacheBytes; }

    /** All I/O goes through it. The default is the local disk. */
    public FileSystem fileSystem() { return fileSystem; }

    /** Create the engine when the directory holds none. The default is true. */
    public boolean createIfMissing() { return createIfMissing; }

    /**
     * Whether {@link Table#putRow} and {@link Table#encodeRow} write rows by schema id from the
     * schema catalogue (compact) rather than self-describing (every column carries its name and
     * type). Both forms are read either way. The default is true.
     */
    public boolean catalogueRows() { return catalogueRows; }

    /**
     * Bytes a memtable holds before it is frozen and flushed. Larger: fewer, larger L0 files and
     * less compaction; more memory and a longer replay after a crash.
     */
    public long memtableBytes() { return memtableBytes; }

    /**
     * Values of at least this many bytes go to value files and the LSM keeps a 24-byte pointer.
     * Lower: less compaction work; one more read per get of a small value.
     */
    public int valueThreshold() { return valueThreshold; }

    /** Uncompressed size of an SSTable data block. */
    public int blockBytes() { return blockBytes; }

    /** Memory for SSTable data blocks; index and filter blocks are held apart, per open table. */
    public long blockCacheBytes() { return blockCacheBytes; }

    public SyncPolicy syncPolicy() { return syncPolicy; }

    /** With {@link SyncPolicy#PERIODIC}: the longest time an acknowledged write stays unsynced. */
    public Duration syncInterval() { return syncInterval; }

    /** Number of level-0 files that triggers a compaction into level 1. */
    public int level0CompactionTrigger() { return level0CompactionTrigger; }

    /** Frozen memtables waiting for flush before writes stall. */
    public int maxImmutableMemtables() { return maxImmutableMemtables; }

    /** Size at which compaction starts a new output SSTable. */
    public long targetFileBytes() { return targetFileBytes; }

    /** Target size of level 1; each deeper level is {@link #levelSizeMultiplier()} times larger. */
    public long level1Bytes() { return level1Bytes; }

    public int levelSizeMultiplier() { return levelSizeMultiplier; }

    /** Compaction's write rate limit, so it never starves serving I/O. 0 means unlimited. */
    public long compactionBytesPerSecond() { return compactionBytesPerSecond; }

    /** The longest a write waits for flushes to catch up before it fails with {@link WriteStallException}. */
    public Duration writeStallTimeout() { return writeStallTimeout; }

    /** Size at which the active value file is closed and a new one begun. */
    public long valueFileBytes() { return valueFileBytes; }

    /** Background value GC rewrites a value file once this fraction of it is garbage. */
    public double valueGcGarbageRatio() { return valueGcGarbageRatio; }

    /**
     * Free space kept back on the engine's file systems: a write that would leave less fails at
     * once with {@link DiskFullException}, before anything of it is written. Deletes (and value
     * GC) may use three quarters of it, and flushes and compactions the rest; while writes are
     * refused, deleted values' space is given back in place. 0 turns the check off. See
     * docs/reliability.md.
     */
    public long reservedDiskBytes() { return reservedDiskBytes; }

    public static final class Builder {
        private Path directory;
        private Path capacityDirectory;
        private int fastLevels = DEFAULT_FAST_LEVELS;
        private long rowCacheBytes = DEFAULT_ROW_CACHE_BYTES;
        private long ssdCacheBytes = DEFAULT_SSD_CACHE_BYTES;
        private FileSystem fileSystem = new LocalFileSystem();
        private boolean createIfMissing = true;
        private boolean catalogueRows = true;
        private long memtableBytes = DEFAULT_MEMTABLE_BYTES;
        private int valueThreshold = DEFAULT_VALUE_THRESHOLD;
        private int blockBytes = DEFAULT_BLOCK_BYTES;
        private long blockCacheBytes = DEFAULT_BLOCK_CACHE_BYTES;
        private SyncPolicy syncPolicy = DEFAULT_SYNC_POLICY;
        private Duration syncInterval = DEFAULT_SYNC_INTERVAL;
        private int level0CompactionTrigger = DEFAULT_LEVEL0_COMPACTION_TRIGGER;
        private int maxImmutableMemtables = DEFAULT_MAX_IMMUTABLE_MEMTABLES;
        private long targetFileBytes = DEFAULT_TARGET_FILE_BYTES;
        private long level1Bytes = DEFAULT_LEVEL1_BYTES;
        private int levelSizeMultiplier = DEFAULT_LEVEL_SIZE_MULTIPLIER;
        private long compactionBytesPerSecond = DEFAULT_COMPACTION_BYTES_PER_SECOND;
        private Duration writeStallTimeout = DEFAULT_WRITE_STALL_TIMEOUT;
        private long valueFileBytes = DEFAULT_VALUE_FILE_BYTES;
        private double valueGcGarbageRatio = DEFAULT_VALUE_GC_GARBAGE_RATIO;
        private long reservedDiskBytes = DEFAULT_RESERVED_DISK_BYTES;

        private Builder(Path directory) {
            this.directory = directory;
        }

        private Builder(EngineOptions o) {
            directory = o.directory;
            capacityDirectory = o.capacityDirectory.equals(o.directory) ? null : o.capacityDirectory;
            fastLevels = o.fastLevels;
            rowCacheBytes = o.rowCacheBytes;
            ssdCacheBytes = o.ssdCacheBytes;
            fileSystem = o.fileSystem;
            createIfMissing = o.createIfMissing;
            catalogueRows = o.catalogueRows;
            memtableBytes = o.memtableBytes;
            valueThreshold = o.valueThreshold;
            blockBytes = o.blockBytes;
            blockCacheBytes = o.blockCacheBytes;
            syncPolicy = o.syncPolicy;
            syncInterval = o.syncInterval;
            level0CompactionTrigger = o.level0CompactionTrigger;
            maxImmutableMemtables = o.maxImmutableMemtables;
            targetFileBytes = o.targetFileBytes;
            level1Bytes = o.level1Bytes;
            levelSizeMultiplier = o.levelSizeMultiplier;
            compactionBytesPerSecond = o.compactionBytesPerSecond;
            writeStallTimeout = o.writeStallTimeout;
            valueFileBytes = o.valueFileBytes;
            valueGcGarbageRatio = o.valueGcGarbageRatio;
            reservedDiskBytes = o.reservedDiskBytes;
        }

        public Builder directory(Path v) { directory = v; return this; }
        public Builder capacityDirectory(Path v) { capacityDirectory = v; return this; }
        public Builder fastLevels(int v) { fastLevels = v; return this; }
        public Builder rowCacheBytes(long v) { rowCacheBytes = v; return this; }
        public Builder ssdCacheBytes(long v) { ssdCacheBytes = v; return this; }
        public Builder fileSystem(FileSystem v) { fileSystem = v; return this; }
        public Builder createIfMissing(boolean v) { createIfMissing = v; return this; }
        public Builder catalogueRows(boolean v) { catalogueRows = v; return this; }
        public Builder memtableBytes(long v) { memtableBytes = v; return this; }
        public Builder valueThreshold(int v) { valueThreshold = v; return this; }
        public Builder blockBytes(int v) { blockBytes = v; return this; }
        public Builder blockCacheBytes(long v) { blockCacheBytes = v; return this; }
        public Builder syncPolicy(SyncPolicy v) { syncPolicy = v; return this; }
        public Builder syncInterval(Duration v) { syncInterval = v; return this; }
        public Builder level0CompactionTrigger(int v) { level0CompactionTrigger = v; return this; }
        public Builder maxImmutableMemtables(int v) { maxImmutableMemtables = v; return this; }
        public Builder targetFileBytes(long v) { targetFileBytes = v; return this; }
        public Builder level1Bytes(long v) { level1Bytes = v; return this; }
        public Builder levelSizeMultiplier(int v) { levelSizeMultiplier = v; return this; }
        public Builder compactionBytesPerSecond(long v) { compactionBytesPerSecond = v; return this; }
        public Builder writeStallTimeout(Duration v) { writeStallTimeout = v; return this; }
        public Builder valueFileBytes(long v) { valueFileBytes = v; return this; }
        public Builder valueGcGarbageRatio(double v) { valueGcGarbageRatio = v; return this; }
        public Builder reservedDiskBytes(long v) { reservedDiskBytes = v; return this; }

        public EngineOptions build() {
            Objects.requireNonNull(directory, "directory");
            Objects.requireNonNull(fileSystem, "fileSystem");
            Objects.requireNonNull(syncPolicy, "syncPolicy");
            require(fastLevels >= 0 && fastLevels <= 7, "fastLevels must be in [0, 7], got " + fastLevels);
            require(rowCacheBytes >= 0, "rowCacheBytes must not be negative, got " + rowCacheBytes);
            require(ssdCacheBytes >= 0, "ssdCacheBytes must not be negative, got " + ssdCacheBytes);
            require(ssdCacheBytes == 0 || rowCacheBytes > 0, "ssdCacheBytes needs a memory row cache (rowCacheBytes > 0)");
            require(memtableBytes >= 4096, "memtableBytes must be at least 4096, got " + memtableBytes);
            require(valueThreshold >= 1, "valueThreshold must be at least 1, got " + valueThreshold);
            require(blockBytes >= 256 && blockBytes <= (1 << 20), "blockBytes must be in [256, 1 MiB], got " + blockBytes);
            require(blockCacheBytes >= 0, "blockCacheBytes must not be negative, got " + blockCacheBytes);
            require(syncInterval != null && !syncInterval.isNegative() && !syncInterval.isZero(),
                    "syncInterval must be positive, got " + syncInterval);
            require(level0CompactionTrigger >= 1, "level0CompactionTrigger must be at least 1, got " + level0CompactionTrigger);
            require(maxImmutableMemtables >= 1, "maxImmutableMemtables must be at least 1, got " + maxImmutableMemtables);
            require(targetFileBytes >= 4096, "targetFileBytes must be at least 4096, got " + targetFileBytes);
            require(level1Bytes >= targetFileBytes, "level1Bytes must be at least targetFileBytes, got " + level1Bytes);
            require(levelSizeMultiplier >= 2, "levelSizeMultiplier must be at least 2, got " + levelSizeMultiplier);
            require(compactionBytesPerSecond >= 0, "compactionBytesPerSecond must not be negative, got " + compactionBytesPerSecond);
            require(writeStallTimeout != null && !writeStallTimeout.isNegative(),
                    "writeStallTimeout must not be negative, got " + writeStallTimeout);
            require(valueFileBytes >= 4096, "valueFileBytes must be at least 4096, got " + valueFileBytes);
            require(valueGcGarbageRatio > 0 && valueGcGarbageRatio <= 1,
                    "valueGcGarbageRatio must be in (0, 1], got " + valueGcGarbageRatio);
            require(reservedDiskBytes >= 0, "reservedDiskBytes must not be negative, got " + reservedDiskBytes);
            return new EngineOptions(this);
        }

        private static void require(boolean condition, String message) {
            if (!condition) {
                throw new IllegalArgumentException("invalid engine option: " + message);
            }
        }
    }
}
