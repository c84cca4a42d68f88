package dev.cairn.service.config;

import static dev.cairn.service.config.CairnProperties.require;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.util.unit.DataSize;

/** Engine settings Cairn exposes; the rest keep the engine's own defaults. */
public class EngineProperties {
    /** Memory for the engine's block cache. */
    private DataSize blockCacheSize = DataSize.ofBytes(dev.cairn.engine.EngineOptions.DEFAULT_BLOCK_CACHE_BYTES);
    /** Memtable size before a flush. */
    private DataSize memtableSize = DataSize.ofBytes(dev.cairn.engine.EngineOptions.DEFAULT_MEMTABLE_BYTES);
    /** When writes become durable: EVERY_WRITE (acknowledged = synced) or PERIODIC. */
    private dev.cairn.engine.SyncPolicy syncPolicy = dev.cairn.engine.EngineOptions.DEFAULT_SYNC_POLICY;
    /**
     * How often the embedded store sweeps up what interrupted writes left (it also sweeps on
     * open); 0 sweeps on open only.
     */
    private Duration sweepInterval = Duration.ofHours(1);
    /** The capacity tier's directory (old levels, value files); unset: the fast tier's. */
    private Path capacityDir;
    /** The engine's SSD row cache on the fast tier; 0: memory only. */
    private DataSize ssdCacheSize = DataSize.ofBytes(dev.cairn.engine.EngineOptions.DEFAULT_SSD_CACHE_BYTES);
    /** Free disk space writes leave alone (deletes may use most of it); see docs/reliability.md. */
    private DataSize reservedDiskSize = DataSize.ofBytes(dev.cairn.engine.EngineOptions.DEFAULT_RESERVED_DISK_BYTES);

    public DataSize getReservedDiskSize() {
        return reservedDiskSize;
    }

    public void setReservedDiskSize(DataSize v) {
        reservedDiskSize = v;
    }

    public Path getCapacityDir() {
        return capacityDir;
    }

    public void setCapacityDir(Path v) {
        capacityDir = v;
    }

    public DataSize getSsdCacheSize() {
        return ssdCacheSize;
    }

    public void setSsdCacheSize(DataSize v) {
        ssdCacheSize = v;
    }

    public Duration getSweepInterval() {
        return sweepInterval;
    }

    public void setSweepInterval(Duration v) {
        sweepInterval = v;
    }

    public DataSize getBlockCacheSize() {
        return blockCacheSize;
    }

    public void setBlockCacheSize(DataSize v) {
        blockCacheSize = v;
    }

    public DataSize getMemtableSize() {
        return memtableSize;
    }

    public void setMemtableSize(DataSize v) {
        memtableSize = v;
    }

    public dev.cairn.engine.SyncPolicy getSyncPolicy() {
        return syncPolicy;
    }

    public void setSyncPolicy(dev.cairn.engine.SyncPolicy v) {
        syncPolicy = v;
    }

    void validate() {
        require(ssdCacheSize != null && ssdCacheSize.toBytes() >= 0, "cairn.engine.ssd-cache-size must not be negative");
        require(sweepInterval != null && !sweepInterval.isNegative(), "cairn.engine.sweep-interval must not be negative");
    }
}
