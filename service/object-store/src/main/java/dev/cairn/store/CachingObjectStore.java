package dev.cairn.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * Keeps small hot objects (row and bytes) in memory in front of any store, so a hot GET costs no
 * store read. Objects larger than {@code maxObjectBytes} pass through uncached. The bytes are kept
 * off the heap while the off-heap copies, cached or evicted and not yet freed, fit in the same
 * capacity (and half the JVM's direct memory, {@link DirectCopies}); past it, on the heap. Either
 * way an entry weighs its bytes.
 *
 * <p>Consistency: a miss loads under the cache's per-key computation, and every write
 * invalidates its key after the store has applied it; an invalidation waits for a load of the
 * same key in flight, so a load that read the old row cannot outlive the write. A write is
 * visible to every read that starts after it is acknowledged.
 *
 * <p>Thread-safety: safe for concurrent use, as the delegate.
 */
public final class CachingObjectStore extends ForwardingObjectStore {
    private static final int ENTRY_OVERHEAD_BYTES = 256;

    private final Cache<CacheKey, Cached> cache;
    private final long maxObjectBytes;
    private final DirectCopies offHeap;

    private record CacheKey(String bucket, String key) {
    }

    /** {@code bytes}: read-only, shared by every read of the entry. */
    private record Cached(ObjectInfo info, ByteBuffer bytes) {
    }

    public CachingObjectStore(ObjectStore delegate, long capacityBytes, long maxObjectBytes) {
        super(delegate);
        if (capacityBytes < 0 || maxObjectBytes < 0) {
            throw new IllegalArgumentException("cache sizes must not be negative");
        }
        this.maxObjectBytes = maxObjectBytes;
        this.offHeap = DirectCopies.within(capacityBytes);
        this.cache = Caffeine.newBuilder()
                .maximumWeight(capacityBytes)
                .weigher((CacheKey k, Cached v) -> (int) Math.min(Integer.MAX_VALUE,
                        v.bytes().capacity() + (long) k.key().length() * 2 + ENTRY_OVERHEAD_BYTES))
                .recordStats()
                .build();
    }

    public CacheStats cacheStats() {
        return cache.stats();
    }

    public long cachedBytes() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
    }

    /** Bytes of cached objects kept off the heap and not yet freed, those evicted included. */
    public long offHeapBytes() {
        return offHeap.liveBytes();
    }

    @Override
    public ObjectRead getObject(String bucket, String key) throws IOException {
        Cached c;
        try {
            c = cache.get(new CacheKey(bucket, key), k -> load(k));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (c == null) {
            // Absent, or too large to cache: the store answers (and owns consistency).
            return delegate.getObject(bucket, key);
        }
        return new BufferObjectRead(c.info(), c.bytes());
    }

    /** A cache hit; a miss, or a load in flight, is null (never waited for). */
    @Override
    public ObjectRead getObjectIfInMemory(String bucket, String key) {
        Cached c = cache.getIfPresent(new CacheKey(bucket, key));
        return c == null ? null : new BufferObjectRead(c.info(), c.bytes());
    }

    private Cached load(CacheKey k) {
        try {
            ObjectInfo head = delegate.headObject(k.bucket(), k.key());
            if (head == null || head.size() > maxObjectBytes) {
                return null;
            }
            try (ObjectRead r = delegate.getObject(k.bucket(), k.key())) {
                if (r == null || r.info().size() > maxObjectBytes) {
                    return null;
                }
                byte[] bytes;
                try (InputStream in = r.open(0, r.size())) {
                    bytes = in.readAllBytes();
                }
                ByteBuffer direct = offHeap.copyOf(bytes);
                return new Cached(r.info(), direct != null ? direct : ByteBuffer.wrap(bytes).asReadOnlyBuffer());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) throws IOException {
        Cached c = cache.getIfPresent(new CacheKey(bucket, key));
        return c != null ? c.info() : delegate.headObject(bucket, key);
    }

    @Override
    protected ObjectInfo objectWrite(String bucket, String key, ObjectWrite write) throws IOException {
        try {
            return write.apply();
        } finally {
            cache.invalidate(new CacheKey(bucket, key));
        }
    }

    /** Rows cached before carry no version id; versioning changes are rare, so all go. */
    @Override
    public void setBucketVersioning(String bucket, Versioning versioning) throws IOException {
        try {
            delegate.setBucketVersioning(bucket, versioning);
        } finally {
            cache.invalidateAll();
        }
    }

    @Override
    public void close() throws IOException {
        cache.invalidateAll();
        delegate.close();
    }
}
