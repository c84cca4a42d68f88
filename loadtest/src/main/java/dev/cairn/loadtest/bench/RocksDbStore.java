package dev.cairn.loadtest.bench;

import dev.cairn.engine.fs.IoCounters;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * RocksDB configured as Cairn's peer: integrated BlobDB (values of at least Cairn's value
 * threshold in blob files, blob garbage collection on), every write synced through the WAL, a
 * block cache of Cairn's size, 4 KiB blocks with a 10-bit bloom filter, no compression (image
 * bytes do not compress and Cairn does not compress). Thread-safety: as {@link BenchStore}.
 */
final class RocksDbStore implements BenchStore {

    /** Blob files start a new file at Cairn's value-file size, so both have as many files. */
    static final long BLOB_FILE_BYTES = dev.cairn.engine.EngineOptions.DEFAULT_VALUE_FILE_BYTES;
    /** The oldest fraction of blob files whose live values compaction relocates. */
    static final double GC_AGE_CUTOFF = CairnStore.GC_GARBAGE_RATIO;

    static {
        RocksDB.loadLibrary();
    }

    private final List<AutoCloseable> resources;
    private final RocksDB db;
    private final WriteOptions writeOptions;

    private RocksDbStore(List<AutoCloseable> resources, RocksDB db, WriteOptions writeOptions) {
        this.resources = resources;
        this.db = db;
        this.writeOptions = writeOptions;
    }

    static RocksDbStore open(Path directory, BenchConfig config) throws IOException {
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            LRUCache cache = track(resources, new LRUCache(config.blockCacheBytes()));
            BloomFilter filter = track(resources, new BloomFilter(10));
            BlockBasedTableConfig table = new BlockBasedTableConfig()
                    .setBlockCache(cache)
                    .setBlockSize(dev.cairn.engine.EngineOptions.DEFAULT_BLOCK_BYTES)
                    .setFilterPolicy(filter);
            Options options = track(resources, new Options())
                    .setCreateIfMissing(true)
                    .setTableFormatConfig(table)
                    .setCompressionType(CompressionType.NO_COMPRESSION)
                    .setWriteBufferSize(dev.cairn.engine.EngineOptions.DEFAULT_MEMTABLE_BYTES)
                    .setEnableBlobFiles(true)
                    .setMinBlobSize(config.valueThreshold())
                    .setBlobFileSize(BLOB_FILE_BYTES)
                    .setBlobCompressionType(CompressionType.NO_COMPRESSION)
                    .setEnableBlobGarbageCollection(true);
            options.setMaxBackgroundJobs(Math.max(2, Runtime.getRuntime().availableProcessors()));
            WriteOptions writeOptions = track(resources, new WriteOptions().setSync(true).setDisableWAL(false));
            RocksDB db = RocksDB.open(options, directory.toString());
            return new RocksDbStore(resources, db, writeOptions);
        } catch (RocksDBException e) {
            closeAll(resources);
            throw new IOException("cannot open RocksDB in " + directory + ": " + e.getMessage(), e);
        }
    }

    private static <T extends AutoCloseable> T track(List<AutoCloseable> resources, T resource) {
        resources.add(resource);
        return resource;
    }

    @Override
    public void put(byte[] key, byte[] value) throws IOException {
        try {
            db.put(writeOptions, key, value);
        } catch (RocksDBException e) {
            throw new IOException("RocksDB put: " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] get(byte[] key) throws IOException {
        try {
            return db.get(key);
        } catch (RocksDBException e) {
            throw new IOException("RocksDB get: " + e.getMessage(), e);
        }
    }

    @Override
    public void flush() throws IOException {
        try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
        } catch (RocksDBException e) {
            throw new IOException("RocksDB flush: " + e.getMessage(), e);
        }
    }

    @Override
    public void compactAndCollectGarbage() throws IOException {
        try (CompactRangeOptions compact = new CompactRangeOptions()
                .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) {
            db.setOptions(MutableColumnFamilyOptions.builder()
                    .setBlobGarbageCollectionAgeCutoff(GC_AGE_CUTOFF)
                    .build());
            db.compactRange(db.getDefaultColumnFamily(), null, null, compact);
        } catch (RocksDBException e) {
            throw new IOException("RocksDB compaction: " + e.getMessage(), e);
        }
    }

    @Override
    public long indexAndFilterBytes() throws IOException {
        try {
            return db.getLongProperty("rocksdb.estimate-table-readers-mem");
        } catch (RocksDBException e) {
            throw new IOException("RocksDB property: " + e.getMessage(), e);
        }
    }

    @Override
    public IoCounters fileSystemCounts() {
        return null;
    }

    @Override
    public void close() throws IOException {
        try {
            db.syncWal();
        } catch (RocksDBException e) {
            throw new IOException("RocksDB sync: " + e.getMessage(), e);
        } finally {
            db.close();
            closeAll(resources);
        }
    }

    private static void closeAll(List<AutoCloseable> resources) {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception ignored) {
                // Native handles: closing releases memory; there is nothing to recover.
            }
        }
    }
}
