package dev.cairn.service.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.CacheStats;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * Keeps small hot objects (row and bytes) in memory in front of any store, so a hot GET costs no
 * store read. Objects larger than {@code maxObjectBytes} pass through uncached.
 *
 * <p>Consistency: a miss loads under the cache's per-key computation, and every write
 * invalidates its key after the store has applied it; an invalidation waits for a load of the
 * same key in flight, so a load that read the old row cannot outlive the write. A write is
 * visible to every read that starts after it is acknowledged.
 *
 * <p>Thread-safety: safe for concurrent use, as the delegate.
 */
public final class CachingObjectStore implements ObjectStore {
    private static final int ENTRY_OVERHEAD_BYTES = 256;

    private final ObjectStore delegate;
    private final Cache<CacheKey, Cached> cache;
    private final long maxObjectBytes;

    private record CacheKey(String bucket, String key) {
    }

    private record Cached(ObjectInfo info, byte[] bytes) {
    }

    public CachingObjectStore(ObjectStore delegate, long capacityBytes, long maxObjectBytes) {
        if (capacityBytes < 0 || maxObjectBytes < 0) {
            throw new IllegalArgumentException("cache sizes must not be negative");
        }
        this.delegate = delegate;
        this.maxObjectBytes = maxObjectBytes;
        this.cache = Caffeine.newBuilder()
                .maximumWeight(capacityBytes)
                .weigher((CacheKey k, Cached v) -> (int) Math.min(Integer.MAX_VALUE,
                        v.bytes().length + (long) k.key().length() * 2 + ENTRY_OVERHEAD_BYTES))
                .recordStats()
                .build();
    }

    public CacheStats cacheStats() {
        return cache.stats();
    }

    public long cachedBytes() {
        return cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
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
        return new ObjectRead() {
            @Override
            public ObjectInfo info() {
                return c.info();
            }

            @Override
            public InputStream open(long offset, long length) {
                return new ByteArrayInputStream(c.bytes(), (int) offset, (int) length);
            }

            @Override
            public ByteBuffer inMemory(long offset, long length) {
                return ByteBuffer.wrap(c.bytes(), (int) offset, (int) length).asReadOnlyBuffer();
            }

            @Override
            public void close() {
            }
        };
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
                try (InputStream in = r.open(0, r.size())) {
                    return new Cached(r.info(), in.readAllBytes());
                }
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
    public ObjectInfo putObject(String bucket, String key, ObjectAttributes attributes, ContentSource content,
                                String etag, int partCount, Map<String, String> checksums, boolean onlyIfAbsent)
            throws IOException {
        try {
            return delegate.putObject(bucket, key, attributes, content, etag, partCount, checksums, onlyIfAbsent);
        } finally {
            cache.invalidate(new CacheKey(bucket, key));
        }
    }

    @Override
    public ObjectInfo deleteObject(String bucket, String key) throws IOException {
        try {
            return delegate.deleteObject(bucket, key);
        } finally {
            cache.invalidate(new CacheKey(bucket, key));
        }
    }

    @Override
    public ObjectInfo completeUpload(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                     long minPartSize) throws IOException {
        try {
            return delegate.completeUpload(bucket, key, uploadId, parts, minPartSize);
        } finally {
            cache.invalidate(new CacheKey(bucket, key));
        }
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        delegate.deleteBucket(bucket);
    }

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl) throws IOException {
        return delegate.createBucket(bucket, acl);
    }

    @Override
    public BucketInfo bucket(String bucket) throws IOException {
        return delegate.bucket(bucket);
    }

    @Override
    public List<BucketInfo> listBuckets() throws IOException {
        return delegate.listBuckets();
    }

    @Override
    public void setBucketAcl(String bucket, BucketAcl acl) throws IOException {
        delegate.setBucketAcl(bucket, acl);
    }

    @Override
    public ListPage listObjects(String bucket, ListQuery query) throws IOException {
        return delegate.listObjects(bucket, query);
    }

    @Override
    public ContentRead getContent(String sha256) throws IOException {
        return delegate.getContent(sha256);
    }

    @Override
    public boolean isContentPublic(String sha256) throws IOException {
        return delegate.isContentPublic(sha256);
    }

    @Override
    public UploadInfo createUpload(String bucket, String key, ObjectAttributes attributes) throws IOException {
        return delegate.createUpload(bucket, key, attributes);
    }

    @Override
    public UploadInfo upload(String bucket, String key, String uploadId) throws IOException {
        return delegate.upload(bucket, key, uploadId);
    }

    @Override
    public PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource content)
            throws IOException {
        return delegate.putPart(bucket, key, uploadId, partNumber, content);
    }

    @Override
    public List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws IOException {
        return delegate.listParts(bucket, key, uploadId, afterPart, maxParts);
    }

    @Override
    public List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker, int max)
            throws IOException {
        return delegate.listUploads(bucket, prefix, keyMarker, uploadIdMarker, max);
    }

    @Override
    public void abortUpload(String bucket, String key, String uploadId) throws IOException {
        delegate.abortUpload(bucket, key, uploadId);
    }

    @Override
    public StoreStats stats() {
        return delegate.stats();
    }

    @Override
    public void close() throws IOException {
        cache.invalidateAll();
        delegate.close();
    }
}
