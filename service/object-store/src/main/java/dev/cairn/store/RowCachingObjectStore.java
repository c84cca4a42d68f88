package dev.cairn.store;

import dev.cairn.engine.TieredCache;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's two-tier row cache ({@link TieredCache}) in front of a remote store: the current
 * version of each (bucket, key) — an object row or, in a versioned bucket, a delete marker — and
 * content of up to {@code maxContentBytes} by SHA-256. Content by digest
 * never changes, so it is never invalidated; a row is invalidated after every write or delete of
 * its key has been applied (or failed: it may have been applied), here and, through the
 * {@link InvalidationPublisher}, on every other node.
 *
 * <p>Races: a miss looks the row up first and fills with that lookup's stamp, so a read that
 * fetched the row before a write cannot install it after the write's invalidation (local or
 * heard from the channel). Rows carry the trust epoch they were read in; losing the channel
 * ({@link #channelLost}) starts a new epoch and bypasses cached rows until the channel is back
 * ({@link #channelResumed}, another new epoch), so rows cached before or during a gap in which
 * messages may have been lost are never served again. What remains is the time between a
 * write's acknowledgement on one node and its message reaching another (docs/cassandra.md).
 *
 * <p>Thread-safe, as the delegate.
 */
public final class RowCachingObjectStore extends ForwardingObjectStore implements InvalidationListener {
    private static final byte ROW = 'r';
    private static final byte CONTENT = 'c';

    private final TieredCache cache;
    private final long maxContentBytes;
    private final AtomicLong epoch = new AtomicLong();
    private volatile boolean trusted;
    private volatile InvalidationPublisher publisher = InvalidationPublisher.NONE;

    private final LongAdder rowHits = new LongAdder();
    private final LongAdder rowMisses = new LongAdder();
    private final LongAdder contentHits = new LongAdder();
    private final LongAdder contentMisses = new LongAdder();

    /**
     * @param trusted whether cached rows may be served from the start: true on a single node,
     *                false until the invalidation channel says it is listening
     */
    public RowCachingObjectStore(ObjectStore delegate, TieredCache cache, long maxContentBytes, boolean trusted) {
        super(delegate);
        if (maxContentBytes < 0) {
            throw new IllegalArgumentException("maxContentBytes must not be negative");
        }
        this.cache = cache;
        this.maxContentBytes = maxContentBytes;
        this.trusted = trusted;
    }

    /** Where this node's writes are announced; this store closes it. */
    public void publishTo(InvalidationPublisher publisher) {
        this.publisher = publisher;
    }

    /** Counters since start: object row and content lookups, hits and misses. */
    public record Stats(long rowHits, long rowMisses, long contentHits, long contentMisses, boolean trusted) {
        public double hitRatio() {
            long hits = rowHits + contentHits;
            long all = hits + rowMisses + contentMisses;
            return all == 0 ? 0 : (double) hits / all;
        }
    }

    public Stats cacheStats() {
        return new Stats(rowHits.sum(), rowMisses.sum(), contentHits.sum(), contentMisses.sum(), trusted);
    }

    public dev.cairn.engine.TieredCacheStats tierStats() {
        return cache.stats();
    }

    // ---------------------------------------------------------------- the channel

    @Override
    public void invalidated(String bucket, String key) {
        if (key.isEmpty()) {
            delegate.forgetBucket(bucket);
        } else {
            cache.invalidate(rowKey(bucket, key));
        }
    }

    /**
     * Readers take the epoch before they check trust, and trust falls before the epoch moves (and
     * rises after it): a reader that finds the store trusted holds an epoch whose rows were all
     * read while the channel was listening, or one that a loss has already retired.
     */
    @Override
    public void channelLost() {
        trusted = false;
        epoch.incrementAndGet();
    }

    @Override
    public void channelResumed() {
        epoch.incrementAndGet();
        trusted = true;
    }

    // ---------------------------------------------------------------- reads

    /** A row lookup: its key, the epoch taken before trust was checked, the cache's answer and the entry if current. */
    private record RowLookup(byte[] key, long epoch, TieredCache.Lookup lookup, CachedRow cached) {
    }

    /** The row's lookup, counted; null when cached rows are not trusted. */
    private RowLookup lookUpRow(String bucket, String key) throws IOException {
        long e = epoch.get();
        if (!trusted) {
            return null;
        }
        byte[] rk = rowKey(bucket, key);
        TieredCache.Lookup lookup = cache.lookup(rk);
        CachedRow cached = CachedRow.decode(lookup.value(), e, key);
        (cached != null ? rowHits : rowMisses).increment();
        return new RowLookup(rk, e, lookup, cached);
    }

    /** Caches {@code entry}, read from the store after {@code row} was looked up, unless invalidated since. */
    private void fill(RowLookup row, CachedRow entry) {
        cache.fill(row.key(), entry.encode(row.epoch()), row.lookup().stamp());
    }

    /** The cached current object, its version named as the store names it now; null for a delete marker. */
    private ObjectInfo objectOf(String bucket, CachedRow cached) throws IOException {
        if (cached.object() == null) {
            return null;
        }
        if (!cached.unnamed()) {
            return cached.object();
        }
        String name = delegate.nullVersionName(bucket);
        return name == null ? cached.object() : cached.object().withVersionId(name);
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) throws IOException {
        RowLookup row = lookUpRow(bucket, key);
        if (row == null) {
            return delegate.headObject(bucket, key);
        }
        if (row.cached() != null) {
            return objectOf(bucket, row.cached());
        }
        ObjectInfo info = delegate.headObject(bucket, key);
        if (info != null) {
            fill(row, CachedRow.of(info));
        }
        return info;
    }

    /**
     * A delete marker as current version is cached as the key's entry (absence is not: a bucket
     * deleted on another node would otherwise answer NoSuchKey here for a while). A GET of such a
     * key asks {@link #getObject} first, then this.
     */
    @Override
    public ObjectVersion currentDeleteMarker(String bucket, String key) throws IOException {
        RowLookup row = lookUpRow(bucket, key);
        if (row == null) {
            return delegate.currentDeleteMarker(bucket, key);
        }
        if (row.cached() != null) {
            return row.cached().marker();
        }
        ObjectVersion marker = delegate.currentDeleteMarker(bucket, key);
        if (marker != null) {
            fill(row, CachedRow.of(marker));
        }
        return marker;
    }

    @Override
    public ObjectRead getObject(String bucket, String key) throws IOException {
        RowLookup row = lookUpRow(bucket, key);
        if (row == null) {
            return delegate.getObject(bucket, key);
        }
        ObjectInfo cached = row.cached() == null ? null : objectOf(bucket, row.cached());
        if (row.cached() != null && cached == null) {
            return null;
        }
        if (cached != null && cached.size() <= maxContentBytes) {
            byte[] bytes = cachedContent(cached.sha256());
            if (bytes != null) {
                return new BytesObjectRead(cached, bytes);
            }
        }
        ObjectRead read = delegate.getObject(bucket, key);
        if (read == null) {
            return null;
        }
        fill(row, CachedRow.of(read.info()));
        if (read.size() > maxContentBytes) {
            return read;
        }
        byte[] bytes;
        try (read; InputStream in = read.open(0, read.size())) {
            bytes = in.readAllBytes();
        }
        byte[] ck = contentKey(read.info().sha256());
        cache.fill(ck, bytes, cache.lookup(ck).stamp());
        return new BytesObjectRead(read.info(), bytes);
    }

    private byte[] cachedContent(String sha256) {
        byte[] bytes = cache.lookup(contentKey(sha256)).value();
        if (bytes == null) {
            contentMisses.increment();
        } else {
            contentHits.increment();
        }
        return bytes;
    }

    // ---------------------------------------------------------------- writes

    /** Runs a write of one object's row and makes every node forget the row it replaced. */
    @Override
    protected ObjectInfo objectWrite(String bucket, String key, ObjectWrite write) throws IOException {
        ObjectInfo result;
        try {
            result = write.apply();
        } catch (IOException | RuntimeException e) {
            invalidateAfterFailure(bucket, key, e);
            throw e;
        }
        invalidateEverywhere(bucket, key);
        return result;
    }

    /**
     * After a write was applied: here, then on every node. A write whose announcement may not
     * have gone out is reported as failed (the client retries, which announces it again) rather
     * than acknowledged while other nodes may keep serving the old row.
     */
    private void invalidateEverywhere(String bucket, String key) throws IOException {
        cache.invalidate(rowKey(bucket, key));
        try {
            publisher.publish(bucket, key);
        } catch (IOException | RuntimeException e) {
            throw new StoreUnavailableException("the write was stored but other nodes could not be told: "
                    + e.getMessage(), e);
        }
    }

    /**
     * A failed write may still have been applied (a timeout): forget the row all the same. A
     * {@link StoreException} changed nothing.
     */
    private void invalidateAfterFailure(String bucket, String key, Exception failure) {
        if (failure instanceof StoreException) {
            return;
        }
        cache.invalidate(rowKey(bucket, key));
        try {
            publisher.publish(bucket, key);
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Cached entries need no change (unnamed rows are named when served), but every node must
     * forget its copy of the bucket, from which it names them: announced as the bucket with an
     * empty key. Not announced, the change is reported as failed, as a write is.
     */
    @Override
    public void setBucketVersioning(String bucket, Versioning versioning) throws IOException {
        delegate.setBucketVersioning(bucket, versioning);
        try {
            publisher.publish(bucket, "");
        } catch (IOException | RuntimeException e) {
            throw new StoreUnavailableException("the versioning was set but other nodes could not be told: "
                    + e.getMessage(), e);
        }
    }

    /** Every node forgets its copy of the bucket, so its next request reads the document; announced as versioning is. */
    @Override
    public void setBucketDocument(BucketDocument document) throws IOException {
        delegate.setBucketDocument(document);
        try {
            publisher.publish(document.bucket(), "");
        } catch (IOException | RuntimeException e) {
            throw new StoreUnavailableException("the bucket's " + document.kind()
                    + " was set but other nodes could not be told: " + e.getMessage(), e);
        }
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        delegate.deleteBucket(bucket);
        // Its objects were deleted (and announced) before; a row left by a racing PUT goes too.
        epoch.incrementAndGet();
    }

    // ---------------------------------------------------------------- encoding

    /** Tag, bucket length (a bucket name is at most 63 ASCII bytes), bucket, key. */
    static byte[] rowKey(String bucket, String key) {
        byte[] b = bucket.getBytes(StandardCharsets.UTF_8);
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + b.length + k.length).put(ROW).put((byte) b.length).put(b).put(k).array();
    }

    static byte[] contentKey(String sha256) {
        byte[] d = Hex.decode(sha256);
        return ByteBuffer.allocate(1 + d.length).put(CONTENT).put(d).array();
    }

    @Override
    public void close() throws IOException {
        try (delegate; cache; InvalidationPublisher p = publisher) {
            trusted = false;
        }
    }
}
