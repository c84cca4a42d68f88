package dev.cairn.engine;

import dev.cairn.engine.cache.RowCache;
import dev.cairn.engine.cache.RowCacheOptions;
import dev.cairn.engine.cache.RowCacheStats;
import dev.cairn.engine.cache.SsdCache;
import dev.cairn.engine.cache.SsdCacheOptions;
import dev.cairn.engine.cache.SsdRecovery;
import java.io.Closeable;
import java.io.IOException;

/**
 * The engine's two-tier row cache (memory, then SSD segments) for rows that live elsewhere, such
 * as in a remote database. Keys and values are byte arrays.
 *
 * <p>Coherence is the caller's: read with {@link #lookup}, and after a miss read the source and
 * {@link #fill} with the lookup's stamp; call {@link #invalidate} after every write of a key has
 * been applied to the source. A fill whose stamp predates an invalidation of the key (or of
 * another key sharing its stripe) is refused, so a read that raced a write never installs the
 * row it read before the write. Content that never changes (addressed by its digest) needs no
 * invalidation.
 *
 * <p>The SSD tier starts empty on every open: rows may have changed while nothing was
 * listening, so segments left by an earlier run are deleted.
 *
 * <p>Thread-safe. Byte arrays passed in or returned are shared and must not be modified.
 */
public final class TieredCache implements Closeable {

    /** A lookup's value (null on a miss) and the stamp to {@link #fill} with after a miss. */
    public record Lookup(byte[] value, long stamp) {
        public boolean hit() {
            return value != null;
        }
    }

    private final RowCache cache;

    private TieredCache(RowCache cache) {
        this.cache = cache;
    }

    public static TieredCache open(TieredCacheOptions options) throws IOException {
        RowCacheOptions memory = RowCacheOptions.builder().memoryBytes(options.memoryBytes()).build();
        if (options.ssdBytes() == 0) {
            return new TieredCache(RowCache.memoryOnly(memory));
        }
        SsdCache ssd = SsdCache.open(SsdCacheOptions.builder(options.directory())
                .segmentBytes(options.segmentBytes())
                .capacityBytes(options.ssdBytes())
                .recovery(SsdRecovery.DROP)
                .build());
        return new TieredCache(RowCache.tiered(memory, ssd));
    }

    /** Looks {@code key} up in memory, then on SSD (an SSD hit is promoted to memory). */
    public Lookup lookup(byte[] key) {
        RowCache.Lookup l = cache.lookup(key, false);
        return new Lookup(l.value(), l.stamp());
    }

    /**
     * Installs {@code value}, read from the source after {@code lookup} returned {@code stamp},
     * unless the key may have been invalidated since. Returns whether it was installed.
     */
    public boolean fill(byte[] key, byte[] value, long stamp) {
        return cache.fill(key, value, stamp);
    }

    /** Forgets {@code key} in both tiers and refuses fills that looked it up before now. */
    public void invalidate(byte[] key) {
        cache.invalidate(key);
    }

    public TieredCacheStats stats() {
        RowCacheStats s = cache.stats();
        return new TieredCacheStats(s.memoryHits(), s.ssdHits(), s.ssdMisses(), s.memoryBytes(), s.memoryEntries(),
                s.ssd() == null ? 0 : s.ssd().bytes(), s.ssd() == null ? 0 : s.ssd().entries());
    }

    @Override
    public void close() throws IOException {
        cache.close();
    }
}
