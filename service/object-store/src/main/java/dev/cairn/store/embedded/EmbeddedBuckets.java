package dev.cairn.store.embedded;

import static dev.cairn.store.embedded.EmbeddedKeys.bytes;
import static dev.cairn.store.embedded.EmbeddedKeys.utf8;

import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.StoreException;
import java.io.IOException;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Buckets: table {@code buckets}, mirrored whole in memory, and the bucket locks.
 *
 * <p>Locks: a bucket's read/write lock (striped) is the first lock of every operation that
 * changes a bucket's contents — writers take its read lock, so a bucket is never deleted under
 * a write; creating, deleting a bucket or changing its ACL, versioning or documents takes its write lock. Reads of the
 * mirror take no lock. Thread-safe.
 */
final class EmbeddedBuckets {
    /** What must be true of a bucket before its row goes; runs under the bucket's write lock. */
    interface Emptier {
        void empty(String bucket) throws IOException;
    }

    private final EmbeddedTables t;
    private final ConcurrentHashMap<String, BucketInfo> cache = new ConcurrentHashMap<>();
    private final ReadWriteLock[] locks = new ReadWriteLock[64];

    EmbeddedBuckets(EmbeddedTables t) throws IOException {
        this.t = t;
        for (int i = 0; i < locks.length; i++) {
            locks[i] = new ReentrantReadWriteLock();
        }
        try (EntryIterator it = t.buckets.scan(KeyRange.all())) {
            while (it.hasNext()) {
                Entry e = it.next();
                String name = utf8(e.key());
                cache.put(name, EmbeddedRows.decodeBucket(name, e.value()));
            }
        }
    }

    BucketInfo create(String bucket, BucketAcl acl, long createdMillis) throws IOException {
        ReadWriteLock lock = lock(bucket);
        lock.writeLock().lock();
        try {
            if (cache.containsKey(bucket)) {
                throw new StoreException(StoreException.Reason.BUCKET_EXISTS, bucket);
            }
            BucketInfo info = new BucketInfo(bucket, createdMillis, acl);
            t.buckets.put(bytes(bucket), EmbeddedRows.encodeBucket(info));
            cache.put(bucket, info);
            return info;
        } finally {
            lock.writeLock().unlock();
        }
    }

    BucketInfo get(String bucket) {
        return cache.get(bucket);
    }

    List<BucketInfo> list() {
        return List.copyOf(new TreeMap<>(cache).values());
    }

    void setAcl(String bucket, BucketAcl acl) throws IOException {
        ReadWriteLock lock = lock(bucket);
        lock.writeLock().lock();
        try {
            BucketInfo b = require(bucket);
            BucketInfo info = b.withAcl(acl);
            t.buckets.put(bytes(bucket), EmbeddedRows.encodeBucket(info));
            cache.put(bucket, info);
        } finally {
            lock.writeLock().unlock();
        }
    }

    void setVersioning(String bucket, dev.cairn.store.Versioning versioning) throws IOException {
        if (versioning == dev.cairn.store.Versioning.UNVERSIONED) {
            throw new IllegalArgumentException("a bucket's versioning cannot be unset");
        }
        ReadWriteLock lock = lock(bucket);
        lock.writeLock().lock();
        try {
            BucketInfo b = require(bucket);
            BucketInfo info = b.withVersioning(versioning);
            t.buckets.put(bytes(bucket), EmbeddedRows.encodeBucket(info));
            cache.put(bucket, info);
        } finally {
            lock.writeLock().unlock();
        }
    }

    void setDocument(dev.cairn.store.BucketDocument document) throws IOException {
        String bucket = document.bucket();
        ReadWriteLock lock = lock(bucket);
        lock.writeLock().lock();
        try {
            BucketInfo info = require(bucket).with(document);
            t.buckets.put(bytes(bucket), EmbeddedRows.encodeBucket(info));
            cache.put(bucket, info);
        } finally {
            lock.writeLock().unlock();
        }
    }

    void delete(String bucket, Emptier emptier) throws IOException {
        ReadWriteLock lock = lock(bucket);
        lock.writeLock().lock();
        try {
            require(bucket);
            emptier.empty(bucket);
            t.buckets.delete(bytes(bucket));
            cache.remove(bucket);
        } finally {
            lock.writeLock().unlock();
        }
    }

    boolean isPublic(String bucket) {
        BucketInfo b = cache.get(bucket);
        return b != null && b.acl() == BucketAcl.PUBLIC_READ;
    }

    BucketInfo require(String bucket) throws StoreException {
        BucketInfo b = cache.get(bucket);
        if (b == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
        return b;
    }

    ReadWriteLock lock(String bucket) {
        return locks[(bucket.hashCode() & 0x7FFFFFFF) % locks.length];
    }
}
