package dev.cairn.store.embedded;

import static dev.cairn.store.embedded.EmbeddedKeys.REF_OBJECT;
import static dev.cairn.store.embedded.EmbeddedKeys.bucketPrefix;
import static dev.cairn.store.embedded.EmbeddedKeys.bytes;
import static dev.cairn.store.embedded.EmbeddedKeys.concat;
import static dev.cairn.store.embedded.EmbeddedKeys.objectKey;
import static dev.cairn.store.embedded.EmbeddedKeys.successor;
import static dev.cairn.store.embedded.EmbeddedObjectStore.CHUNK_BYTES;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Snapshot;
import dev.cairn.engine.WriteBatch;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.Listing;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectRecordCodec;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreStats;
import dev.cairn.store.VersionId;
import dev.cairn.store.Versioning;
import dev.cairn.store.WriteConditions;
import java.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * Object rows: table {@code objects} (bucket, 0x00, key → an engine row, {@link ObjectRow}) and
 * {@code layouts}; writing, reading, deleting and listing them.
 *
 * <p>Locks: a write or delete takes its bucket's read lock, then the lock of its (bucket, key)
 * stripe, then the content locks of the content it adds and drops ({@link EmbeddedContent}); the
 * write condition is checked under the key's lock, in the critical section that writes the row,
 * and the row change, the reference changes and any reclamation are one atomic batch. Reads take
 * no lock: a one-chunk read retries when the content it was about to read was reclaimed, and then
 * reads row and content at one snapshot. Thread-safe.
 */
final class EmbeddedObjects {
    /** Lock-free tries of a small object before reading it at a snapshot; a miss needs a racing overwrite. */
    private static final int UNPINNED_READS = 2;

    private final EmbeddedTables t;
    private final EmbeddedBuckets buckets;
    private final EmbeddedContent content;
    private final EmbeddedReaders readers;
    private final EmbeddedVersions versions;
    private final Clock clock;
    private final StripedLocks keyLocks = new StripedLocks(1024);
    private final AtomicLong logicalBytes = new AtomicLong();
    private final AtomicLong physicalBytes = new AtomicLong();

    EmbeddedObjects(EmbeddedTables t, EmbeddedBuckets buckets, EmbeddedContent content, EmbeddedReaders readers,
                    Clock clock) {
        this.t = t;
        this.clock = clock;
        this.buckets = buckets;
        this.content = content;
        this.readers = readers;
        this.versions = new EmbeddedVersions(t.versions);
    }

    /**
     * Writes an object row and takes its content's reference. {@code partSizes}: the part sizes of
     * a completed multipart upload, else null.
     */
    ObjectInfo write(PutRequest request, long[] partSizes) throws IOException {
        String bucket = request.bucket();
        String key = request.key();
        ContentSource source = request.content();
        String etag = request.etag();
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try {
            Versioning versioning = buckets.require(bucket).versioning();
            byte[] rowKey = objectKey(bucket, key);
            String sha = source.sha256();
            boolean large = source.size() > CHUNK_BYTES;
            boolean stored = false;
            Intents intents = t.intents;
            byte[] intent = large ? intents.begin() : null;
            boolean acquired = false;
            boolean done = false;
            try {
                if (large) {
                    stored = content.acquireLarge(sha, REF_OBJECT, bucket, source, intent);
                    acquired = true;
                }
                try (StripedLocks.Held k = keyLocks.lock(new String(rowKey, StandardCharsets.ISO_8859_1))) {
                    byte[] oldRow = t.objects.get(rowKey);
                    ObjectInfo old = decodeOrNull(key, oldRow);
                    WriteConditions.check(key, old, request.onlyIfAbsent(), request.ifMatch());
                    long now = clock.millis();
                    ObjectInfo info = new ObjectInfo(key, sha, source.size(), etag, request.attributes(),
                            now, request.partCount(), request.checksums());
                    EmbeddedVersions.Plan plan = versioning == Versioning.UNVERSIONED ? null
                            : versions.plan(bucket, key, versioning, old, sortOf(oldRow), now);
                    boolean replacesOld = old != null && (plan == null || plan.replacesOld());
                    if (plan != null) {
                        info = info.withVersionId(plan.newId());
                    }
                    try (StripedLocks.Held c = content.lock(sha, replacesOld ? old.sha256() : null,
                            plan == null ? null : plan.droppedSha())) {
                        WriteBatch batch = new WriteBatch();
                        EmbeddedContent.RefChanges changes = content.new RefChanges();
                        if (!large) {
                            if (!content.exists(sha)) {
                                changes.newContent(sha, EmbeddedContent.readSmall(source));
                                stored = true;
                            }
                            changes.add(sha, REF_OBJECT, bucket, +1);
                        }
                        if (replacesOld) {
                            changes.add(old.sha256(), REF_OBJECT, bucket, -1);
                        }
                        if (plan != null) {
                            plan.apply(bucket, key, batch, changes, versions.table(), t.layouts);
                        }
                        changes.apply(batch);
                        batch.putRow(t.objects, rowKey, ObjectRow.toRow(info, plan == null ? null : plan.newSort()));
                        if (partSizes != null) {
                            t.layouts.put(batch, rowKey, etag, partSizes);
                        } else if (old != null && old.partCount() > 0) {
                            t.layouts.delete(batch, rowKey);
                        }
                        if (intent != null) {
                            intents.delete(batch, intent);
                        }
                        t.engine.write(batch);
                        logicalBytes.addAndGet(source.size());
                        if (stored) {
                            physicalBytes.addAndGet(source.size());
                        }
                        done = true;
                        return info;
                    }
                }
            } finally {
                try {
                    if (acquired && !done) {
                        content.release(sha, REF_OBJECT, bucket, intent);
                    }
                } finally {
                    intents.end(intent);
                }
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    /** Rewrites the row with another ACL, in place: same content, references and modification time. */
    ObjectInfo setAcl(String bucket, String key, dev.cairn.store.BucketAcl acl) throws IOException {
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try {
            buckets.require(bucket);
            byte[] rowKey = objectKey(bucket, key);
            try (StripedLocks.Held k = keyLocks.lock(new String(rowKey, StandardCharsets.ISO_8859_1))) {
                byte[] oldRow = t.objects.get(rowKey);
                ObjectInfo old = decodeOrNull(key, oldRow);
                if (old == null) {
                    throw new StoreException(StoreException.Reason.NO_SUCH_KEY, key);
                }
                if (old.acl() == acl) {
                    return old;
                }
                ObjectInfo info = old.withAttributes(old.attributes().withAcl(acl));
                WriteBatch batch = new WriteBatch();
                batch.putRow(t.objects, rowKey, ObjectRow.toRow(info, sortOf(oldRow)));
                t.engine.write(batch);
                return info;
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    /** The part sizes of the current version, or of the version {@code info} names when another. */
    long[] partSizes(String bucket, String key, ObjectInfo info) throws IOException {
        buckets.require(bucket);
        if (info.partCount() == 0) {
            return null;
        }
        long[] sizes = t.layouts.read(objectKey(bucket, key), info);
        if (sizes != null || info.versionId() == null) {
            return sizes;
        }
        EmbeddedVersions.Stored v = versions.find(bucket, key, info.versionId(), dev.cairn.engine.ReadOptions.DEFAULT);
        return v == null || !v.isObject() ? null : t.layouts.read(EmbeddedVersions.rowKey(bucket, key, v.sort()), info);
    }

    ObjectInfo head(String bucket, String key) throws IOException {
        Versioning versioning = buckets.require(bucket).versioning();
        return named(versioning, decodeOrNull(key, t.objects.get(objectKey(bucket, key))));
    }

    ObjectRead get(String bucket, String key) throws IOException {
        Versioning versioning = buckets.require(bucket).versioning();
        byte[] rowKey = objectKey(bucket, key);
        for (int attempt = 0; attempt < UNPINNED_READS; attempt++) {
            ObjectInfo info = named(versioning, decodeOrNull(key, t.objects.get(rowKey)));
            if (info == null) {
                return null;
            }
            if (info.size() > CHUNK_BYTES) {
                break;
            }
            ObjectRead read = readers.small(info, ReadOptions.DEFAULT);
            if (read != null) {
                return read;
            }
            // The content was reclaimed after the row was read: the row changed; read it again.
        }
        return pinnedRead(versioning, key, rowKey);
    }

    /** A row written before its bucket's versioning was configured is the version {@code null}. */
    static ObjectInfo named(Versioning versioning, ObjectInfo info) {
        return info == null || info.versionId() != null || versioning == Versioning.UNVERSIONED
                ? info : info.withVersionId(VersionId.NULL);
    }

    /**
     * Reads the row and its content at one snapshot. A row change and the reclamation of the
     * content it released are one batch, so at a snapshot the content of the row is always there.
     */
    private ObjectRead pinnedRead(Versioning versioning, String key, byte[] rowKey) throws IOException {
        Snapshot snap = t.engine.snapshot();
        boolean handedOver = false;
        try {
            ReadOptions at = ReadOptions.at(snap);
            ObjectInfo pinned = named(versioning, decodeOrNull(key, t.objects.get(rowKey, at)));
            if (pinned == null) {
                return null;
            }
            if (pinned.size() > CHUNK_BYTES) {
                handedOver = true;
                return readers.chunked(pinned, snap);
            }
            ObjectRead read = readers.small(pinned, at);
            if (read == null) {
                throw new CorruptionException("chunks/" + pinned.sha256() + "/0: missing for objects/" + key);
            }
            return read;
        } finally {
            if (!handedOver) {
                snap.close();
            }
        }
    }

    ObjectInfo delete(String bucket, String key) throws IOException {
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try {
            buckets.require(bucket);
            byte[] rowKey = objectKey(bucket, key);
            try (StripedLocks.Held k = keyLocks.lock(new String(rowKey, StandardCharsets.ISO_8859_1))) {
                ObjectInfo old = decodeOrNull(key, t.objects.get(rowKey));
                if (old == null) {
                    return null;
                }
                try (StripedLocks.Held c = content.lock(old.sha256())) {
                    WriteBatch batch = new WriteBatch();
                    EmbeddedContent.RefChanges changes = content.new RefChanges();
                    changes.add(old.sha256(), REF_OBJECT, bucket, -1);
                    changes.apply(batch);
                    batch.delete(t.objects, rowKey);
                    if (old.partCount() > 0) {
                        t.layouts.delete(batch, rowKey);
                    }
                    t.engine.write(batch);
                }
                return old;
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    /** Refuses with BUCKET_NOT_EMPTY when the bucket holds an object. */
    void requireNone(String bucket) throws IOException {
        try (EntryIterator it = t.objects.scan(KeyRange.prefix(bucketPrefix(bucket)))) {
            if (it.hasNext()) {
                throw new StoreException(StoreException.Reason.BUCKET_NOT_EMPTY, bucket);
            }
        }
        try (EntryIterator it = versions.table().scan(KeyRange.prefix(bucketPrefix(bucket)))) {
            if (it.hasNext()) {
                throw new StoreException(StoreException.Reason.BUCKET_NOT_EMPTY, bucket);
            }
        }
    }

    ListPage list(String bucket, ListQuery query) throws IOException {
        buckets.require(bucket);
        byte[] base = bucketPrefix(bucket);
        byte[] end = successor(concat(base, bytes(query.prefix())));
        return Listing.page(query, (key, from) -> {
            byte[] start = concat(base, bytes(key));
            if (from == Listing.From.AFTER) {
                start = concat(start, new byte[] {0});
            } else if (from == Listing.From.PAST_PREFIX) {
                start = successor(start);
            }
            if (start == null || (end != null && Arrays.compareUnsigned(start, end) >= 0)) {
                return EMPTY;
            }
            EntryIterator it = t.objects.scan(new KeyRange(start, end));
            return new Listing.Cursor() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public ObjectInfo next() {
                    Entry e = it.next();
                    String k = new String(e.key(), base.length, e.key().length - base.length, StandardCharsets.UTF_8);
                    try {
                        return decode(k, e.value());
                    } catch (CorruptionException ex) {
                        throw new UncheckedIOException(ex);
                    }
                }

                @Override
                public void close() {
                    it.close();
                }
            };
        });
    }

    StoreStats stats() {
        return new StoreStats(logicalBytes.get(), physicalBytes.get());
    }

    /** The sort id of a current row; null when it has none (or is absent). */
    byte[] sortOf(byte[] row) throws CorruptionException {
        if (row == null || ObjectRecordCodec.isRecord(row)) {
            return null;
        }
        return ObjectRow.sortOf(t.objects.decodeRow(row));
    }

    /** Locks one key for a change of its rows; close to unlock. */
    StripedLocks.Held lockKey(byte[] rowKey) {
        return keyLocks.lock(new String(rowKey, StandardCharsets.ISO_8859_1));
    }

    ObjectInfo decodeOrNull(String key, byte[] row) throws CorruptionException {
        return row == null ? null : decode(key, row);
    }

    /** An engine row; or, from a store written before objects were rows, the object record's bytes. */
    ObjectInfo decode(String key, byte[] value) throws CorruptionException {
        if (ObjectRecordCodec.isRecord(value)) {
            return ObjectRecordCodec.decode(key, value, "objects/" + key);
        }
        return ObjectRow.fromRow(key, t.objects.decodeRow(value));
    }

    private static final Listing.Cursor EMPTY = new Listing.Cursor() {
        @Override
        public boolean hasNext() {
            return false;
        }

        @Override
        public ObjectInfo next() {
            throw new NoSuchElementException();
        }

        @Override
        public void close() {
        }
    };
}
