package dev.cairn.store;

import dev.cairn.engine.CorruptionException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A row cache entry's value: the current version of one key as {@link RowCachingObjectStore}
 * keeps it, with the trust epoch it was read in. Byte by byte in docs/format/object-record.md,
 * "Row cache entries".
 *
 * <p>A row the store named {@code null} or {@link VersionId#NULL} (written without a version id)
 * is kept unnamed: the name depends on the bucket's versioning, which may change without the row
 * being written, so it is taken from the store each time the row is served.
 *
 * @param object  the object of the current version; null for a delete marker
 * @param unnamed whether {@code object} was written without a version id
 * @param marker  the current delete marker; null for an object
 */
record CachedRow(ObjectInfo object, boolean unnamed, ObjectVersion marker) {
    private static final byte UNNAMED_OBJECT = 0;
    private static final byte NAMED_OBJECT = 1;
    private static final byte DELETE_MARKER = 2;

    static CachedRow of(ObjectInfo info) {
        String id = info.versionId();
        boolean unnamed = id == null || VersionId.NULL.equals(id);
        return new CachedRow(unnamed ? info.withVersionId(null) : info, unnamed, null);
    }

    static CachedRow of(ObjectVersion marker) {
        if (!marker.deleteMarker()) {
            throw new IllegalArgumentException("not a delete marker: " + marker);
        }
        return new CachedRow(null, false, ObjectVersion.marker(marker.key(), marker.versionId(),
                marker.lastModified(), true));
    }

    byte[] encode(long epoch) {
        if (marker != null) {
            byte[] id = marker.versionId().getBytes(StandardCharsets.US_ASCII);
            return ByteBuffer.allocate(8 + 1 + 1 + id.length + 8).putLong(epoch).put(DELETE_MARKER)
                    .put((byte) id.length).put(id).putLong(marker.lastModified()).array();
        }
        byte[] record = ObjectRecordCodec.encode(object);
        byte[] id = unnamed ? new byte[0] : object.versionId().getBytes(StandardCharsets.US_ASCII);
        ByteBuffer b = ByteBuffer.allocate(8 + 1 + (unnamed ? 0 : 1 + id.length) + record.length).putLong(epoch);
        if (unnamed) {
            b.put(UNNAMED_OBJECT);
        } else {
            b.put(NAMED_OBJECT).put((byte) id.length).put(id);
        }
        return b.put(record).array();
    }

    /** The entry of {@code key}, or null when absent or cached in another epoch. */
    static CachedRow decode(byte[] value, long epoch, String key) throws IOException {
        if (value == null) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(value);
        if (b.getLong() != epoch) {
            return null;
        }
        String where = "cache/" + key;
        try {
            byte kind = b.get();
            switch (kind) {
                case UNNAMED_OBJECT:
                    return new CachedRow(ObjectRecordCodec.decode(key, rest(value, b), where), true, null);
                case NAMED_OBJECT: {
                    String id = versionId(b);
                    return new CachedRow(ObjectRecordCodec.decode(key, rest(value, b), where).withVersionId(id),
                            false, null);
                }
                case DELETE_MARKER: {
                    String id = versionId(b);
                    long modified = b.getLong();
                    if (b.hasRemaining()) {
                        throw new CorruptionException(where + ": bytes after a delete marker");
                    }
                    return new CachedRow(null, false, ObjectVersion.marker(key, id, modified, true));
                }
                default:
                    throw new CorruptionException(where + ": unknown entry kind " + kind);
            }
        } catch (CorruptionException | RuntimeException e) {
            throw new IOException("a cached row of " + key + " is unreadable", e);
        }
    }

    private static String versionId(ByteBuffer b) {
        byte[] id = new byte[b.get() & 0xFF];
        b.get(id);
        return new String(id, StandardCharsets.US_ASCII);
    }

    private static byte[] rest(byte[] value, ByteBuffer b) {
        return Arrays.copyOfRange(value, b.position(), value.length);
    }
}
