package dev.cairn.engine.internal;

import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import dev.cairn.engine.TieredCacheStats;
import dev.cairn.engine.cache.RowCache;
import dev.cairn.engine.cache.RowCacheOptions;
import dev.cairn.engine.cache.RowCacheStats;
import dev.cairn.engine.cache.SsdCache;
import dev.cairn.engine.cache.SsdCacheOptions;
import dev.cairn.engine.cache.SsdRecovery;
import java.io.IOException;

/** {@link TieredCache} over the engine's {@link RowCache}. Thread-safe, as the row cache is. */
final class TieredCacheImpl implements TieredCache {
    private final RowCache cache;

    private TieredCacheImpl(RowCache cache) {
        this.cache = cache;
    }

    static TieredCache open(TieredCacheOptions options) throws IOException {
        RowCacheOptions memory = RowCacheOptions.builder().memoryBytes(options.memoryBytes()).build();
        if (options.ssdBytes() == 0) {
            return new TieredCacheImpl(RowCache.memoryOnly(memory));
        }
        SsdCache ssd = SsdCache.open(SsdCacheOptions.builder(options.directory())
                .segmentBytes(options.segmentBytes())
                .capacityBytes(options.ssdBytes())
                .recovery(SsdRecovery.DROP)
                .build());
        return new TieredCacheImpl(RowCache.tiered(memory, ssd));
    }

    @Override
    public Lookup lookup(byte[] key) {
        RowCache.Lookup l = cache.lookup(key, false);
        return new Lookup(l.value(), l.stamp());
    }

    @Override
    public boolean fill(byte[] key, byte[] value, long stamp) {
        return cache.fill(key, value, stamp);
    }

    @Override
    public void invalidate(byte[] key) {
        cache.invalidate(key);
    }

    @Override
    public TieredCacheStats stats() {
        RowCacheStats s = cache.stats();
        return new TieredCacheStats(s.memoryHits(), s.ssdHits(), s.ssdMisses(), s.memoryBytes(), s.memoryEntries(),
                s.ssd() == null ? 0 : s.ssd().bytes(), s.ssd() == null ? 0 : s.ssd().entries());
    }

    /** Waits until rows evicted from memory so far have reached the SSD tier or been refused (tests). */
    boolean awaitCascades(java.time.Duration timeout) throws InterruptedException {
        return cache.awaitCascades(timeout);
    }

    @Override
    public void close() throws IOException {
        cache.close();
    }
}
