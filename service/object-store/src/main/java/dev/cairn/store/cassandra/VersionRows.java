package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * The rows of table {@code versions} (docs/cassandra-internals.md, "Versioning"): one per version of a key
 * of a versioned bucket, current or not, delete markers included, clustered by a sort id that
 * orders a key's versions newest first. A version's id is derived from its write id, so an object
 * cell names its own version. Stateless; thread-safe.
 */
final class VersionRows {
    /** DO NOT CHANGE: embedded in stored data. */
    static final int FORMAT = 1;
    static final int FLAG_MARKER = 1;
    static final int FLAG_NULL_ID = 2;
    private static final int MARKER_BYTES = 2 + WriteId.LENGTH + 8;

    private VersionRows() {
    }

    /**
     * The 12-byte sort id of a write: {@code Long.MAX_VALUE} minus its microseconds, big-endian,
     * then the first 4 of its random bytes; the same form as the embedded store's
     * (docs/format/versions.md, "Version ids").
     */
    static byte[] sortOf(WriteId wid) {
        ByteBuffer b = ByteBuffer.allocate(VersionId.SORT_BYTES);
        b.putLong(Long.MAX_VALUE - wid.timestampMicros());
        b.put(wid.bytes(), 8, 4);
        return b.array();
    }

    static String idOf(WriteId wid) {
        return VersionId.encode(sortOf(wid));
    }

    /** One row of {@code versions}, decoded. */
    record Stored(byte[] sort, boolean marker, boolean nullId, WriteId wid, long lastModified, ObjectInfo info,
                  UUID generation, ByteBuffer cell, ByteBuffer layout, long writetime) {

        String versionId() {
            return nullId ? VersionId.NULL : VersionId.encode(sort);
        }

        ObjectVersion version(String key, boolean latest) {
            return marker ? ObjectVersion.marker(key, versionId(), lastModified, latest) : ObjectVersion.of(info, latest);
        }
    }

    static ByteBuffer encodeMarker(WriteId wid, long millis, boolean nullId) {
        ByteBuffer b = ByteBuffer.allocate(MARKER_BYTES);
        b.put((byte) FORMAT).put((byte) (FLAG_MARKER | (nullId ? FLAG_NULL_ID : 0))).put(wid.bytes()).putLong(millis);
        return b.flip();
    }

    /** An object version: the flags, then the object cell as {@code objects} holds it ({@link RowFormat}). */
    static ByteBuffer encodeObject(ByteBuffer cell, boolean nullId) {
        ByteBuffer c = cell.duplicate();
        ByteBuffer b = ByteBuffer.allocate(2 + c.remaining());
        b.put((byte) FORMAT).put((byte) (nullId ? FLAG_NULL_ID : 0)).put(c);
        return b.flip();
    }

    static Stored decode(String key, Row r) {
        byte[] sort = new byte[VersionId.SORT_BYTES];
        ByteBuffer s = r.getByteBuffer("sort");
        if (s == null || s.remaining() != VersionId.SORT_BYTES) {
            throw new IllegalStateException("a stored version of " + key + " has a malformed sort id");
        }
        s.duplicate().get(sort);
        ByteBuffer row = r.getByteBuffer("row").duplicate();
        int format = row.get() & 0xff;
        if (format != FORMAT) {
            throw new IllegalStateException("a stored version of " + key + " has format " + format
                    + ", this version reads " + FORMAT);
        }
        int flags = row.get() & 0xff;
        if ((flags & ~(FLAG_MARKER | FLAG_NULL_ID)) != 0) {
            throw new IllegalStateException("a stored version of " + key + " has unknown flags " + flags);
        }
        boolean nullId = (flags & FLAG_NULL_ID) != 0;
        long writetime = r.isNull("ts") ? 0 : r.getLong("ts");
        ByteBuffer layout = r.getByteBuffer("layout");
        if ((flags & FLAG_MARKER) != 0) {
            WriteId wid = WriteId.of(row);
            row.position(row.position() + WriteId.LENGTH);
            return new Stored(sort, true, nullId, wid, row.getLong(), null, null, null, null, writetime);
        }
        ByteBuffer cell = row.slice();
        RowFormat.Stored<ObjectInfo> o = RowFormat.decodeObject(key, cell);
        ObjectInfo info = nullId ? o.value().withVersionId(VersionId.NULL) : o.value();
        return new Stored(sort, false, nullId, o.writeId(), info.lastModified(), info, o.generation(), cell, layout,
                writetime);
    }
}
