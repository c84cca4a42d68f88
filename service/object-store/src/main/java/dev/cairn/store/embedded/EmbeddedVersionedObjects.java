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
import dev.cairn.store.Listing;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionListing;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.Versioning;
import java.time.Clock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * What versioning adds to object rows: delete markers, deleting one version for good, reading a
 * version by id, the current delete marker, and ListObjectVersions over {@code objects} and
 * {@code versions} together (docs/format/versions.md).
 *
 * <p>Locks: as {@link EmbeddedObjects} — the bucket's read lock, the key's lock, then the content
 * locks of the digests whose references change; every change of a key's rows and references is
 * one batch. Reads take no lock and read at one snapshot. Thread-safe.
 */
final class EmbeddedVersionedObjects {
    private final EmbeddedTables t;
    private final EmbeddedBuckets buckets;
    private final EmbeddedContent content;
    private final EmbeddedReaders readers;
    private final EmbeddedObjects objects;
    private final EmbeddedVersions versions;
    private final Clock clock;

    EmbeddedVersionedObjects(EmbeddedTables t, EmbeddedBuckets buckets, EmbeddedContent content,
                             EmbeddedReaders readers, EmbeddedObjects objects, Clock clock) {
        this.t = t;
        this.clock = clock;
        this.buckets = buckets;
        this.content = content;
        this.readers = readers;
        this.objects = objects;
        this.versions = new EmbeddedVersions(t.versions);
    }

    /**
     * DeleteObject: without a version id, a delete marker in a versioned bucket (the unversioned
     * delete otherwise); with one, that version for good.
     */
    ObjectVersion delete(String bucket, String key, String versionId) throws IOException {
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try {
            Versioning versioning = buckets.require(bucket).versioning();
            if (versionId == null && versioning == Versioning.UNVERSIONED) {
                ObjectInfo removed = objects.delete(bucket, key);
                return removed == null ? null : ObjectVersion.of(removed, true);
            }
            byte[] rowKey = objectKey(bucket, key);
            try (StripedLocks.Held k = objects.lockKey(rowKey)) {
                byte[] oldRow = t.objects.get(rowKey);
                ObjectInfo old = EmbeddedObjects.named(versioning, objects.decodeOrNull(key, oldRow));
                if (versionId == null) {
                    return addMarker(bucket, key, versioning, rowKey, old, objects.sortOf(oldRow));
                }
                if (old != null && matches(old, versionId)) {
                    return deleteCurrent(bucket, key, rowKey, old);
                }
                return deleteNoncurrent(bucket, key, rowKey, old, versionId);
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    private ObjectVersion addMarker(String bucket, String key, Versioning versioning, byte[] rowKey, ObjectInfo old,
                                    byte[] oldSort) throws IOException {
        long now = clock.millis();
        EmbeddedVersions.Plan plan = versions.plan(bucket, key, versioning, old, oldSort, now);
        ObjectVersion marker = ObjectVersion.marker(key, plan.newId(), now, true);
        boolean replacesOld = old != null && plan.replacesOld();
        try (StripedLocks.Held c = content.lock(replacesOld ? old.sha256() : null, plan.droppedSha())) {
            WriteBatch batch = new WriteBatch();
            EmbeddedContent.RefChanges changes = content.new RefChanges();
            if (replacesOld) {
                changes.add(old.sha256(), REF_OBJECT, bucket, -1);
            }
            plan.apply(bucket, key, batch, changes, t.versions, t.layouts);
            changes.apply(batch);
            if (old != null) {
                batch.delete(t.objects, rowKey);
                if (old.partCount() > 0) {
                    t.layouts.delete(batch, rowKey);
                }
            }
            batch.put(t.versions, EmbeddedVersions.rowKey(bucket, key, plan.newSort()), EmbeddedVersions.encode(marker));
            t.engine.write(batch);
        }
        return marker;
    }

    private ObjectVersion deleteCurrent(String bucket, String key, byte[] rowKey, ObjectInfo old) throws IOException {
        EmbeddedVersions.Stored next = versions.newest(bucket, key, ReadOptions.DEFAULT);
        try (StripedLocks.Held c = content.lock(old.sha256())) {
            WriteBatch batch = new WriteBatch();
            EmbeddedContent.RefChanges changes = content.new RefChanges();
            changes.add(old.sha256(), REF_OBJECT, bucket, -1);
            changes.apply(batch);
            batch.delete(t.objects, rowKey);
            if (old.partCount() > 0) {
                t.layouts.delete(batch, rowKey);
            }
            if (next != null && next.isObject()) {
                promote(batch, bucket, key, rowKey, next);
            }
            t.engine.write(batch);
        }
        return ObjectVersion.of(old, true);
    }

    private ObjectVersion deleteNoncurrent(String bucket, String key, byte[] rowKey, ObjectInfo current,
                                           String versionId) throws IOException {
        EmbeddedVersions.Stored target = versions.find(bucket, key, versionId, ReadOptions.DEFAULT);
        if (target == null) {
            return null;
        }
        EmbeddedVersions.Stored next = null;
        boolean wasLatest = false;
        if (current == null) {
            byte[] prefix = EmbeddedVersions.keyPrefix(bucket, key);
            try (EntryIterator it = t.versions.scan(KeyRange.prefix(prefix))) {
                int seen = 0;
                while (it.hasNext() && seen < 2) {
                    Entry e = it.next();
                    if (e.key().length != prefix.length + VersionId.SORT_BYTES) {
                        continue;
                    }
                    byte[] sort = Arrays.copyOfRange(e.key(), prefix.length, e.key().length);
                    if (seen == 0) {
                        wasLatest = Arrays.equals(sort, target.sort());
                    } else if (wasLatest) {
                        next = new EmbeddedVersions.Stored(sort, EmbeddedVersions.decode(key, sort, e.value()));
                    }
                    seen++;
                }
            }
        }
        String sha = target.isObject() ? target.version().info().sha256() : null;
        try (StripedLocks.Held c = content.lock(sha)) {
            WriteBatch batch = new WriteBatch();
            EmbeddedContent.RefChanges changes = content.new RefChanges();
            if (sha != null) {
                changes.add(sha, REF_OBJECT, bucket, -1);
            }
            changes.apply(batch);
            batch.delete(t.versions, EmbeddedVersions.rowKey(bucket, key, target.sort()));
            if (target.isObject() && target.version().info().partCount() > 0) {
                t.layouts.delete(batch, EmbeddedVersions.rowKey(bucket, key, target.sort()));
            }
            if (next != null && next.isObject()) {
                promote(batch, bucket, key, rowKey, next);
            }
            t.engine.write(batch);
        }
        ObjectVersion v = target.version();
        return new ObjectVersion(v.key(), v.versionId(), v.deleteMarker(), v.lastModified(), v.info(), wasLatest);
    }

    /** Makes an older object version current again: its row moves back, its reference with it. */
    private void promote(WriteBatch batch, String bucket, String key, byte[] rowKey, EmbeddedVersions.Stored next)
            throws IOException {
        batch.delete(t.versions, EmbeddedVersions.rowKey(bucket, key, next.sort()));
        batch.putRow(t.objects, rowKey, ObjectRow.toRow(next.version().info(), next.sort()));
        if (next.version().info().partCount() > 0) {
            t.layouts.move(batch, EmbeddedVersions.rowKey(bucket, key, next.sort()), rowKey);
        }
    }

    private static boolean matches(ObjectInfo current, String versionId) {
        String id = current.versionId() == null ? VersionId.NULL : current.versionId();
        return id.equals(versionId);
    }

    /**
     * PutObjectAcl of one version: the current one through {@link EmbeddedObjects#setAcl}; an
     * older one has its {@code versions} row written again with the new ACL. Null when the key
     * has no object version of that id.
     */
    ObjectInfo setAcl(String bucket, String key, String versionId, dev.cairn.store.BucketAcl acl) throws IOException {
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try {
            Versioning versioning = buckets.require(bucket).versioning();
            byte[] rowKey = objectKey(bucket, key);
            try (StripedLocks.Held k = objects.lockKey(rowKey)) {
                ObjectInfo current = EmbeddedObjects.named(versioning, objects.decodeOrNull(key, t.objects.get(rowKey)));
                if (current == null || !matches(current, versionId)) {
                    EmbeddedVersions.Stored s = versions.find(bucket, key, versionId, ReadOptions.DEFAULT);
                    if (s == null || !s.isObject()) {
                        return null;
                    }
                    ObjectVersion v = s.version();
                    ObjectInfo info = v.info().withAttributes(v.info().attributes().withAcl(acl));
                    WriteBatch batch = new WriteBatch();
                    batch.put(t.versions, EmbeddedVersions.rowKey(bucket, key, s.sort()),
                            EmbeddedVersions.encode(new ObjectVersion(key, v.versionId(), false, v.lastModified(), info, false)));
                    t.engine.write(batch);
                    return info;
                }
                // Locks are reentrant: the current version changes under the same locks.
                return objects.setAcl(bucket, key, acl);
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    ObjectVersion version(String bucket, String key, String versionId) throws IOException {
        Versioning versioning = buckets.require(bucket).versioning();
        try (Snapshot snap = t.engine.snapshot()) {
            ReadOptions at = ReadOptions.at(snap);
            ObjectInfo current = EmbeddedObjects.named(versioning, objects.decodeOrNull(key, t.objects.get(objectKey(bucket, key), at)));
            if (current != null && matches(current, versionId)) {
                return ObjectVersion.of(current, true);
            }
            EmbeddedVersions.Stored s = versions.find(bucket, key, versionId, at);
            if (s == null) {
                return null;
            }
            boolean latest = false;
            if (current == null) {
                EmbeddedVersions.Stored newest = versions.newest(bucket, key, at);
                latest = newest != null && Arrays.equals(newest.sort(), s.sort());
            }
            ObjectVersion v = s.version();
            return new ObjectVersion(v.key(), v.versionId(), v.deleteMarker(), v.lastModified(), v.info(), latest);
        }
    }

    /** The content of an object version, read at one snapshot; null when no object version has that id. */
    ObjectRead read(String bucket, String key, String versionId) throws IOException {
        Versioning versioning = buckets.require(bucket).versioning();
        Snapshot snap = t.engine.snapshot();
        boolean handedOver = false;
        try {
            ReadOptions at = ReadOptions.at(snap);
            ObjectInfo info = EmbeddedObjects.named(versioning, objects.decodeOrNull(key, t.objects.get(objectKey(bucket, key), at)));
            if (info == null || !matches(info, versionId)) {
                EmbeddedVersions.Stored s = versions.find(bucket, key, versionId, at);
                if (s == null || !s.isObject()) {
                    return null;
                }
                info = s.version().info();
            }
            if (info.size() > CHUNK_BYTES) {
                handedOver = true;
                return readers.chunked(info, snap);
            }
            ObjectRead read = readers.small(info, at);
            if (read == null) {
                throw new CorruptionException("chunks/" + info.sha256() + "/0: missing for " + key + " version " + versionId);
            }
            return read;
        } finally {
            if (!handedOver) {
                snap.close();
            }
        }
    }

    ObjectVersion currentDeleteMarker(String bucket, String key) throws IOException {
        if (buckets.require(bucket).versioning() == Versioning.UNVERSIONED) {
            return null;
        }
        try (Snapshot snap = t.engine.snapshot()) {
            ReadOptions at = ReadOptions.at(snap);
            if (t.objects.get(objectKey(bucket, key), at) != null) {
                return null;
            }
            EmbeddedVersions.Stored newest = versions.newest(bucket, key, at);
            if (newest == null || newest.isObject()) {
                return null;
            }
            ObjectVersion v = newest.version();
            return ObjectVersion.marker(key, v.versionId(), v.lastModified(), true);
        }
    }

    /** ListObjectVersions: current rows and {@code versions} rows merged by key, at one snapshot. */
    VersionPage list(String bucket, VersionQuery query) throws IOException {
        Versioning versioning = buckets.require(bucket).versioning();
        byte[] base = bucketPrefix(bucket);
        byte[] end = successor(concat(base, bytes(query.prefix())));
        try (Snapshot snap = t.engine.snapshot()) {
            ReadOptions at = ReadOptions.at(snap);
            return VersionListing.page(query, (key, from) -> {
                byte[] start = concat(base, bytes(key));
                byte[] objectsStart = start;
                byte[] versionsStart = start;
                if (from == Listing.From.AFTER) {
                    objectsStart = concat(start, new byte[] {0});
                    versionsStart = concat(start, new byte[] {1});
                } else if (from == Listing.From.PAST_PREFIX) {
                    objectsStart = successor(start);
                    versionsStart = objectsStart;
                }
                if (objectsStart == null) {
                    return new Merge(null, null, base, versioning);
                }
                EntryIterator current = t.objects.scan(new KeyRange(objectsStart, end), at);
                EntryIterator older = t.versions.scan(new KeyRange(versionsStart, end), at);
                return new Merge(current, older, base, versioning);
            });
        }
    }

    /** A bucket's versions in (key, newest first) order from its current rows and its {@code versions} rows. */
    private final class Merge implements VersionListing.Cursor {
        private final EntryIterator current;
        private final EntryIterator older;
        private final byte[] base;
        private final Versioning versioning;
        private final ArrayDeque<ObjectVersion> ready = new ArrayDeque<>();
        private Entry nextCurrent;
        private Entry nextOlder;

        Merge(EntryIterator current, EntryIterator older, byte[] base, Versioning versioning) {
            this.current = current;
            this.older = older;
            this.base = base;
            this.versioning = versioning;
            nextCurrent = advance(current);
            nextOlder = advance(older);
        }

        private static Entry advance(EntryIterator it) {
            return it != null && it.hasNext() ? it.next() : null;
        }

        private byte[] objectKeyOf(Entry older) {
            return Arrays.copyOfRange(older.key(), 0, older.key().length - VersionId.SORT_BYTES - 1);
        }

        @Override
        public boolean hasNext() {
            if (ready.isEmpty()) {
                fill();
            }
            return !ready.isEmpty();
        }

        @Override
        public ObjectVersion next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return ready.poll();
        }

        /** Queues every version of the next key. */
        private void fill() {
            try {
                byte[] keyBytes;
                if (nextCurrent == null && nextOlder == null) {
                    return;
                } else if (nextOlder == null) {
                    keyBytes = nextCurrent.key();
                } else if (nextCurrent == null) {
                    keyBytes = objectKeyOf(nextOlder);
                } else {
                    byte[] olderKey = objectKeyOf(nextOlder);
                    keyBytes = Arrays.compareUnsigned(nextCurrent.key(), olderKey) <= 0 ? nextCurrent.key() : olderKey;
                }
                String key = new String(keyBytes, base.length, keyBytes.length - base.length, StandardCharsets.UTF_8);
                boolean latest = true;
                if (nextCurrent != null && Arrays.equals(nextCurrent.key(), keyBytes)) {
                    ready.add(ObjectVersion.of(EmbeddedObjects.named(versioning, objects.decode(key, nextCurrent.value())), true));
                    latest = false;
                    nextCurrent = advance(current);
                }
                while (nextOlder != null && nextOlder.key().length == keyBytes.length + 1 + VersionId.SORT_BYTES
                        && Arrays.equals(objectKeyOf(nextOlder), keyBytes)) {
                    byte[] sort = Arrays.copyOfRange(nextOlder.key(), keyBytes.length + 1, nextOlder.key().length);
                    ObjectVersion v = EmbeddedVersions.decode(key, sort, nextOlder.value());
                    ready.add(new ObjectVersion(v.key(), v.versionId(), v.deleteMarker(), v.lastModified(), v.info(), latest));
                    latest = false;
                    nextOlder = advance(older);
                }
            } catch (CorruptionException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() {
            if (current != null) {
                current.close();
            }
            if (older != null) {
                older.close();
            }
        }
    }
}
