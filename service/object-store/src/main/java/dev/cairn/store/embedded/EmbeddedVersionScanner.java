package dev.cairn.store.embedded;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.Engine;
import dev.cairn.engine.Entry;
import dev.cairn.engine.EntryIterator;
import dev.cairn.engine.KeyRange;
import dev.cairn.engine.ReadOptions;
import dev.cairn.engine.Table;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRecordCodec;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads every version of a bucket's keys — current rows from {@code objects}, older versions and
 * delete markers from {@code versions} — merged in (key in UTF-8 order, newest first) order, each
 * with its sort id and, for a multipart object version, its part sizes (one more read, two for an
 * older version): what a backup of a versioned bucket records. Like {@link EmbeddedScanner} it
 * writes nothing (works on {@link Engine#openReadOnly}) and reads with the {@link ReadOptions} given.
 *
 * <p>Thread-safety: safe for concurrent use when the engine is.
 */
public final class EmbeddedVersionScanner {
    private final Table objects;
    private final Table versions;
    private final PartLayouts layouts;
    private final ReadOptions read;

    /** Receives versions in order. */
    @FunctionalInterface
    public interface VersionVisitor {
        void visit(VersionRecord version) throws IOException;
    }

    public EmbeddedVersionScanner(Engine engine, ReadOptions read) throws IOException {
        this.objects = engine.table("objects");
        this.versions = engine.table("versions");
        this.layouts = new PartLayouts(engine.table("layouts"));
        this.read = read;
    }

    /**
     * Visits the versions of {@code bucket}, whose versioning is {@code versioning} (it names a
     * current row's version id), after the version of {@code afterKey} at {@code afterOrder}
     * when {@code afterKey} is not null ({@code afterOrder} null: after every version of it).
     */
    public void scan(String bucket, Versioning versioning, String afterKey, byte[] afterOrder, VersionVisitor visitor)
            throws IOException {
        byte[] base = EmbeddedKeys.bucketPrefix(bucket);
        byte[] end = EmbeddedKeys.successor(base);
        byte[] objectsStart = base;
        byte[] versionsStart = base;
        byte[] lastKey = null;
        if (afterKey != null) {
            byte[] after = EmbeddedKeys.objectKey(bucket, afterKey);
            lastKey = after; // the versions of afterKey still to come are not its newest
            objectsStart = EmbeddedKeys.concat(after, new byte[] {0});
            versionsStart = afterOrder == null ? EmbeddedKeys.concat(after, new byte[] {1})
                    : EmbeddedKeys.concat(EmbeddedVersions.rowKey(bucket, afterKey, afterOrder), new byte[] {0});
        }
        try (EntryIterator current = objects.scan(new KeyRange(objectsStart, end), read);
             EntryIterator older = versions.scan(new KeyRange(versionsStart, end), read)) {
            Entry nextCurrent = advance(current);
            Entry nextOlder = advance(older);
            while (nextCurrent != null || nextOlder != null) {
                byte[] olderKey = nextOlder == null ? null : objectKeyOf(nextOlder);
                boolean takeCurrent = nextOlder == null
                        || (nextCurrent != null && Arrays.compareUnsigned(nextCurrent.key(), olderKey) <= 0);
                if (takeCurrent) {
                    String key = keyOf(nextCurrent.key(), base.length);
                    byte[] value = nextCurrent.value();
                    ObjectInfo info = decodeCurrent(key, value);
                    if (info.versionId() == null && versioning != Versioning.UNVERSIONED) {
                        info = info.withVersionId(VersionId.NULL);
                    }
                    visitor.visit(withLayout(bucket, new VersionRecord(ObjectVersion.of(info, true), sortOf(value))));
                    lastKey = nextCurrent.key();
                    nextCurrent = advance(current);
                    continue;
                }
                if (nextOlder.key().length < base.length + 1 + VersionId.SORT_BYTES) {
                    throw new CorruptionException("versions: key of " + nextOlder.key().length + " bytes");
                }
                String key = keyOf(olderKey, base.length);
                byte[] sort = Arrays.copyOfRange(nextOlder.key(), olderKey.length + 1, nextOlder.key().length);
                ObjectVersion v = EmbeddedVersions.decode(key, sort, nextOlder.value());
                boolean latest = !Arrays.equals(lastKey, olderKey);
                visitor.visit(withLayout(bucket, new VersionRecord(new ObjectVersion(v.key(), v.versionId(),
                        v.deleteMarker(), v.lastModified(), v.info(), latest), sort)));
                lastKey = olderKey;
                nextOlder = advance(older);
            }
        }
    }

    /** The version with its part sizes when it is multipart and they are recorded and describe it. */
    private VersionRecord withLayout(String bucket, VersionRecord record) throws IOException {
        ObjectVersion v = record.version();
        if (v.deleteMarker() || v.info().partCount() == 0) {
            return record;
        }
        long[] sizes = layouts.ofScanned(bucket, v.info(), record.order(), read);
        return sizes == null || VersionRecord.wrongLayout(v.info(), sizes) != null ? record : record.withPartSizes(sizes);
    }

    private static Entry advance(EntryIterator it) {
        return it.hasNext() ? it.next() : null;
    }

    private static byte[] objectKeyOf(Entry older) {
        return Arrays.copyOfRange(older.key(), 0, older.key().length - VersionId.SORT_BYTES - 1);
    }

    private static String keyOf(byte[] objectKey, int baseLength) {
        return new String(objectKey, baseLength, objectKey.length - baseLength, StandardCharsets.UTF_8);
    }

    private ObjectInfo decodeCurrent(String key, byte[] value) throws CorruptionException {
        if (ObjectRecordCodec.isRecord(value)) {
            return ObjectRecordCodec.decode(key, value, "objects/" + key);
        }
        return ObjectRow.fromRow(key, objects.decodeRow(value));
    }

    private byte[] sortOf(byte[] value) throws CorruptionException {
        return ObjectRecordCodec.isRecord(value) ? null : ObjectRow.sortOf(objects.decodeRow(value));
    }
}
