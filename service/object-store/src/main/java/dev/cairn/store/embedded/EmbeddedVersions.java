package dev.cairn.store.embedded;

import static dev.cairn.store.embedded.EmbeddedKeys.concat;
import static dev.cairn.store.embedded.EmbeddedKeys.objectKey;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Table;
import dev.cairn.engine.WriteBatch;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRecordCodec;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.RowBytes;
import dev.cairn.store.VersionId;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.util.Arrays;

/**
 * Table {@code versions}: the versions of a key that are not its current object row — older
 * object versions and delete markers — keyed (bucket, 0x00, key, 0x00, sort id), newest first
 * (docs/format/versions.md). Row values and the key's reads; what a write or delete of a key in
 * a versioned bucket does to them ({@link #plan}). Stateless apart from the engine's table;
 * thread-safe. Callers hold the key's lock when they change a key's versions.
 */
final class EmbeddedVersions {
    /** DO NOT CHANGE: the first byte of every {@code versions} value. */
    static final int FORMAT_VERSION = 1;
    static final int DELETE_MARKER = 1;
    static final int NULL_ID = 2;

    /** A {@code versions} row: its sort id and what it holds ({@code latest} false). */
    record Stored(byte[] sort, ObjectVersion version) {
        boolean isObject() {
            return !version.deleteMarker();
        }
    }

    private final Table versions;

    EmbeddedVersions(Table versions) {
        this.versions = versions;
    }

    Table table() {
        return versions;
    }

    /** The start of every {@code versions} key of one object key. */
    static byte[] keyPrefix(String bucket, String key) {
        return concat(objectKey(bucket, key), new byte[] {0});
    }

    static byte[] rowKey(String bucket, String key, byte[] sort) {
        return concat(keyPrefix(bucket, key), sort);
    }

    static byte[] encode(ObjectVersion v) {
        RowBytes.Writer w = new RowBytes.Writer().u8(FORMAT_VERSION)
                .u8((v.deleteMarker() ? DELETE_MARKER : 0) | (VersionId.NULL.equals(v.versionId()) ? NULL_ID : 0));
        if (v.deleteMarker()) {
            return w.varint(v.lastModified()).bytes();
        }
        return w.raw(ObjectRecordCodec.encode(v.info())).bytes();
    }

    static ObjectVersion decode(String key, byte[] sort, byte[] value) throws CorruptionException {
        String where = "versions/" + key + "/" + VersionId.encode(sort);
        RowBytes.Reader r = new RowBytes.Reader(value, where);
        r.version(FORMAT_VERSION);
        int flags = r.u8();
        if ((flags & ~(DELETE_MARKER | NULL_ID)) != 0) {
            throw new CorruptionException(where + ": unknown flags " + flags);
        }
        String id = (flags & NULL_ID) != 0 ? VersionId.NULL : VersionId.encode(sort);
        if ((flags & DELETE_MARKER) != 0) {
            long modified = r.varint();
            r.end();
            return ObjectVersion.marker(key, id, modified, false);
        }
        byte[] record = r.raw(r.remaining());
        ObjectInfo info = ObjectRecordCodec.decode(key, record, where).withVersionId(id);
        return ObjectVersion.of(info, false);
    }

    /** The key's newest {@code versions} row, or null. */
    Stored newest(String bucket, String key, ReadOptions at) throws IOException {
        byte[] prefix = keyPrefix(bucket, key);
        try (EntryIterator it = versions.scan(KeyRange.prefix(prefix), at)) {
            while (it.hasNext()) {
                Stored s = stored(key, prefix, it.next());
                if (s != null) {
                    return s;
                }
            }
        }
        return null;
    }

    /** The key's {@code versions} row of {@code versionId} ({@code null} included), or null. */
    Stored find(String bucket, String key, String versionId, ReadOptions at) throws IOException {
        byte[] prefix = keyPrefix(bucket, key);
        if (!VersionId.NULL.equals(versionId)) {
            byte[] sort = VersionId.decode(versionId);
            if (sort == null) {
                return null;
            }
            byte[] value = versions.get(concat(prefix, sort), at);
            return value == null ? null : new Stored(sort, decode(key, sort, value));
        }
        try (EntryIterator it = versions.scan(KeyRange.prefix(prefix), at)) {
            while (it.hasNext()) {
                Stored s = stored(key, prefix, it.next());
                if (s != null && VersionId.NULL.equals(s.version().versionId())) {
                    return s;
                }
            }
        }
        return null;
    }

    /** The row of an entry of the key's range; null for a longer key's entry (one holding 0x00). */
    private static Stored stored(String key, byte[] prefix, Entry e) throws CorruptionException {
        if (e.key().length != prefix.length + VersionId.SORT_BYTES) {
            return null;
        }
        byte[] sort = Arrays.copyOfRange(e.key(), prefix.length, e.key().length);
        return new Stored(sort, decode(key, sort, e.value()));
    }

    /**
     * What a write or delete of a key in a versioned bucket does besides writing its new current
     * row or delete marker: which version it demotes to {@code versions}, whether it replaces the
     * current row (dropping its reference), which {@code null} version it drops.
     *
     * @param newSort     the sort id of the version being written
     * @param newId       its version id
     * @param demote      the current version, now a {@code versions} row; null when none stays
     * @param replacesOld whether the current version goes for good (its reference dropped)
     * @param droppedNull the noncurrent {@code null} version that goes for good; null for none
     */
    record Plan(byte[] newSort, String newId, Stored demote, boolean replacesOld, Stored droppedNull) {
        /** Digests whose references this plan drops (nulls for none), for the content locks. */
        String droppedSha() {
            return droppedNull != null && droppedNull.isObject() ? droppedNull.version().info().sha256() : null;
        }

        /** Applies the plan to {@code batch}; the caller writes or deletes the current row's layout after it. */
        void apply(String bucket, String key, WriteBatch batch, EmbeddedContent.RefChanges changes, Table versions,
                   PartLayouts layouts) throws IOException {
            if (demote != null) {
                batch.put(versions, rowKey(bucket, key, demote.sort()), encode(demote.version()));
                if (demote.version().info().partCount() > 0) {
                    layouts.move(batch, EmbeddedKeys.objectKey(bucket, key), rowKey(bucket, key, demote.sort()));
                }
            }
            if (droppedNull != null) {
                batch.delete(versions, rowKey(bucket, key, droppedNull.sort()));
                if (droppedNull.isObject() && droppedNull.version().info().partCount() > 0) {
                    layouts.delete(batch, rowKey(bucket, key, droppedNull.sort()));
                }
                if (droppedNull.isObject()) {
                    changes.add(droppedNull.version().info().sha256(), EmbeddedKeys.REF_OBJECT, bucket, -1);
                }
            }
        }
    }

    /**
     * Plans a write (or delete marker) of a key in a bucket whose versioning is configured.
     * REQUIRES: the key's lock. {@code old}: the current row as read, {@code oldSort} its sort id
     * (null when written before versioning was configured).
     */
    Plan plan(String bucket, String key, Versioning versioning, ObjectInfo old, byte[] oldSort, long nowMillis)
            throws IOException {
        Stored newest = newest(bucket, key, ReadOptions.DEFAULT);
        long floor = newest == null ? Long.MIN_VALUE : VersionId.micros(newest.sort());
        boolean oldIsNull = old != null && (old.versionId() == null || VersionId.NULL.equals(old.versionId()));
        Stored demote = null;
        boolean replacesOld = false;
        if (old != null) {
            byte[] sort = oldSort;
            if (sort == null) {
                long at = Math.max(old.lastModified() * 1000, floor == Long.MIN_VALUE ? Long.MIN_VALUE : floor + 1);
                sort = VersionId.sortAt(at);
            }
            floor = Math.max(floor, VersionId.micros(sort));
            if (versioning == Versioning.SUSPENDED && oldIsNull) {
                replacesOld = true;
            } else {
                ObjectInfo kept = oldIsNull ? old.withVersionId(VersionId.NULL) : old;
                demote = new Stored(sort, ObjectVersion.of(kept, false));
            }
        }
        Stored droppedNull = null;
        if (versioning == Versioning.SUSPENDED) {
            droppedNull = find(bucket, key, VersionId.NULL, ReadOptions.DEFAULT);
        }
        long now = nowMillis * 1000;
        byte[] newSort = VersionId.sortAt(floor == Long.MIN_VALUE ? now : Math.max(now, floor + 1));
        String newId = versioning == Versioning.SUSPENDED ? VersionId.NULL : VersionId.encode(newSort);
        return new Plan(newSort, newId, demote, replacesOld, droppedNull);
    }
}
