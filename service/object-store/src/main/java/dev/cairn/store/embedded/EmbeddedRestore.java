package dev.cairn.store.embedded;

import static dev.cairn.store.embedded.EmbeddedKeys.REF_OBJECT;
import static dev.cairn.store.embedded.EmbeddedKeys.objectKey;
import static dev.cairn.store.embedded.EmbeddedObjectStore.CHUNK_BYTES;

import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.WriteBatch;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * Writes versions exactly as a backup recorded them ({@link dev.cairn.store.ObjectStore#restoreVersion}):
 * the row takes its time, id and sort id from the record, and goes where its sort id puts it among
 * the key's versions, keeping the invariant of docs/format/versions.md (the newest version is the
 * current row when it is an object version; an object version is never newest in {@code versions}).
 * Writing a record again replaces the row of the same sort id, so a restore that is resumed can
 * write a key's versions again in any order.
 *
 * <p>Locks and batches as {@link EmbeddedObjects#write}: large content is stored and referenced
 * (journaled) before the key's lock; under it, the rows and every reference change are one batch.
 * Thread-safe.
 */
final class EmbeddedRestore {
    private final EmbeddedTables t;
    private final EmbeddedBuckets buckets;
    private final EmbeddedContent content;
    private final EmbeddedObjects objects;
    private final EmbeddedVersions versions;

    EmbeddedRestore(EmbeddedTables t, EmbeddedBuckets buckets, EmbeddedContent content, EmbeddedObjects objects) {
        this.t = t;
        this.buckets = buckets;
        this.content = content;
        this.objects = objects;
        this.versions = new EmbeddedVersions(t.versions);
    }

    void restore(String bucket, VersionRecord record, ContentSource source) throws IOException {
        ObjectVersion v = record.version();
        byte[] sort = record.order();
        String key = v.key();
        v.checkRestorable(sort, source);
        ReadWriteLock bucketLock = buckets.lock(bucket);
        bucketLock.readLock().lock();
        try {
            Versioning versioning = buckets.require(bucket).versioning();
            if (sort != null && versioning == Versioning.UNVERSIONED) {
                throw new IllegalArgumentException(bucket + "/" + key + ": a version with a place, but the bucket's"
                        + " versioning is not configured");
            }
            String sha = v.deleteMarker() ? null : v.info().sha256();
            boolean large = sha != null && v.info().size() > CHUNK_BYTES;
            byte[] intent = large ? t.intents.begin() : null;
            boolean acquired = false;
            boolean done = false;
            try {
                if (large) {
                    content.acquireLarge(sha, REF_OBJECT, bucket, source, intent);
                    acquired = true;
                }
                byte[] rowKey = objectKey(bucket, key);
                try (StripedLocks.Held k = objects.lockKey(rowKey)) {
                    Change change = sort == null ? replaceCurrent(bucket, key, rowKey, v, record.partSizes())
                            : place(bucket, key, rowKey, v, sort, record.partSizes());
                    List<String> locked = new ArrayList<>(change.dropped);
                    locked.add(sha);
                    try (StripedLocks.Held c = content.lock(locked.toArray(String[]::new))) {
                        EmbeddedContent.RefChanges changes = content.new RefChanges();
                        if (sha != null && !large) {
                            if (!content.exists(sha)) {
                                changes.newContent(sha, EmbeddedContent.readSmall(source));
                            }
                            changes.add(sha, REF_OBJECT, bucket, +1);
                        }
                        for (String dropped : change.dropped) {
                            changes.add(dropped, REF_OBJECT, bucket, -1);
                        }
                        changes.apply(change.batch);
                        if (intent != null) {
                            t.intents.delete(change.batch, intent);
                        }
                        t.engine.write(change.batch);
                        done = true;
                    }
                }
            } finally {
                try {
                    if (acquired && !done) {
                        content.release(sha, REF_OBJECT, bucket, intent);
                    }
                } finally {
                    t.intents.end(intent);
                }
            }
        } finally {
            bucketLock.readLock().unlock();
        }
    }

    /** The rows a restore writes and the references it drops. */
    private static final class Change {
        final WriteBatch batch = new WriteBatch();
        final List<String> dropped = new ArrayList<>();

        void drop(ObjectVersion v) {
            if (v != null && !v.deleteMarker()) {
                dropped.add(v.info().sha256());
            }
        }
    }

    /** A record without place: it replaces the current row, as an unversioned write does. */
    private Change replaceCurrent(String bucket, String key, byte[] rowKey, ObjectVersion v, long[] partSizes)
            throws IOException {
        Change change = new Change();
        ObjectInfo old = objects.decodeOrNull(key, t.objects.get(rowKey));
        if (old != null) {
            change.dropped.add(old.sha256());
        }
        change.batch.putRow(t.objects, rowKey, ObjectRow.toRow(v.info().withKey(key).withVersionId(null), null));
        putLayout(change, rowKey, v, partSizes, old != null && old.partCount() > 0);
        return change;
    }

    /** The layout of the row written at {@code rowKey}: its part sizes, or none (dropping one there). */
    private void putLayout(Change change, byte[] rowKey, ObjectVersion v, long[] partSizes, boolean hadLayout) {
        if (partSizes != null) {
            t.layouts.put(change.batch, rowKey, v.info().etag(), partSizes);
        } else if (hadLayout) {
            t.layouts.delete(change.batch, rowKey);
        }
    }

    /** A record with its sort id: placed among the key's versions. */
    private Change place(String bucket, String key, byte[] rowKey, ObjectVersion v, byte[] sort, long[] partSizes)
            throws IOException {
        Change change = new Change();
        byte[] currentRow = t.objects.get(rowKey);
        ObjectInfo current = objects.decodeOrNull(key, currentRow);
        byte[] currentSort = objects.sortOf(currentRow);
        boolean restoresNull = VersionId.NULL.equals(v.versionId()) || v.versionId() == null;

        // The key's versions rows: the one at this place (replaced) and any other null version (dropped).
        byte[] prefix = EmbeddedVersions.keyPrefix(bucket, key);
        byte[] newestOlder = null;
        boolean replacedLayout = false;
        try (EntryIterator it = t.versions.scan(KeyRange.prefix(prefix))) {
            while (it.hasNext()) {
                Entry e = it.next();
                if (e.key().length != prefix.length + VersionId.SORT_BYTES) {
                    continue;
                }
                byte[] s = Arrays.copyOfRange(e.key(), prefix.length, e.key().length);
                ObjectVersion stored = EmbeddedVersions.decode(key, s, e.value());
                boolean samePlace = Arrays.equals(s, sort);
                boolean otherNull = restoresNull && VersionId.NULL.equals(stored.versionId());
                if (samePlace || otherNull) {
                    change.drop(stored);
                    byte[] versionRow = EmbeddedVersions.rowKey(bucket, key, s);
                    change.batch.delete(t.versions, versionRow);
                    if (!samePlace && !stored.deleteMarker() && stored.info().partCount() > 0) {
                        t.layouts.delete(change.batch, versionRow);
                    }
                    if (samePlace && !stored.deleteMarker() && stored.info().partCount() > 0) {
                        replacedLayout = true;
                    }
                } else if (newestOlder == null) {
                    newestOlder = s;
                }
            }
        }
        boolean newest = (newestOlder == null || Arrays.compareUnsigned(sort, newestOlder) < 0)
                && (currentSort == null || Arrays.compareUnsigned(sort, currentSort) <= 0);
        ObjectInfo stored = v.deleteMarker() ? null : v.info().withKey(key)
                .withVersionId(restoresNull ? VersionId.NULL : v.versionId());
        if (!newest) {
            byte[] versionRow = EmbeddedVersions.rowKey(bucket, key, sort);
            change.batch.put(t.versions, versionRow,
                    EmbeddedVersions.encode(stored == null ? v : ObjectVersion.of(stored, false)));
            putLayout(change, versionRow, v, partSizes, replacedLayout);
            return change;
        }
        boolean currentLayout = false;
        if (current != null) {
            boolean currentIsNull = current.versionId() == null || VersionId.NULL.equals(current.versionId());
            // A current row at this place, without place, or a second null version goes; any other becomes older.
            if (currentSort == null || Arrays.equals(currentSort, sort) || (restoresNull && currentIsNull)) {
                change.dropped.add(current.sha256());
                currentLayout = current.partCount() > 0;
            } else {
                ObjectInfo kept = currentIsNull ? current.withVersionId(VersionId.NULL) : current;
                byte[] olderRow = EmbeddedVersions.rowKey(bucket, key, currentSort);
                change.batch.put(t.versions, olderRow, EmbeddedVersions.encode(ObjectVersion.of(kept, false)));
                if (current.partCount() > 0) {
                    // Its layout goes with it, as when a serving write makes the current version older.
                    t.layouts.move(change.batch, rowKey, olderRow);
                }
            }
        }
        if (stored == null) {
            if (current != null) {
                change.batch.delete(t.objects, rowKey);
            }
            if (currentLayout) {
                t.layouts.delete(change.batch, rowKey);
            }
            change.batch.put(t.versions, EmbeddedVersions.rowKey(bucket, key, sort), EmbeddedVersions.encode(v));
        } else {
            change.batch.putRow(t.objects, rowKey, ObjectRow.toRow(stored, sort));
            putLayout(change, rowKey, v, partSizes, currentLayout);
        }
        return change;
    }
}
