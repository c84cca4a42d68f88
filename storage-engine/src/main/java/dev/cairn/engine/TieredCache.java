package dev.cairn.engine;

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
public interface TieredCache extends Closeable {

    /** A lookup's value (null on a miss) and the stamp to {@link #fill} with after a miss. */
    record Lookup(byte[] value, long stamp) {
        public boolean hit() {
            return value != null;
        }
    }

    static TieredCache open(TieredCacheOptions options) throws IOException {
        return ProviderHolder.PROVIDER.openTieredCache(options);
    }

    /** Looks {@code key} up in memory, then on SSD (an SSD hit is promoted to memory). */
    Lookup lookup(byte[] key);

    /**
     * Installs {@code value}, read from the source after {@code lookup} returned {@code stamp},
     * unless the key may have been invalidated since. Returns whether it was installed.
     */
    boolean fill(byte[] key, byte[] value, long stamp);

    /** Forgets {@code key} in both tiers and refuses fills that looked it up before now. */
    void invalidate(byte[] key);

    TieredCacheStats stats();
}
