package dev.cairn.backup.archive;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The binary encoding of buckets and object rows shared by manifests and the row chunks of a run
 * in progress (docs/format/backup-archive.md). Big-endian; a string is a 4-byte length and its
 * UTF-8 bytes, length -1 for null.
 */
public final class RowCodec {
    public static final int TAG_BUCKET = 'B';
    public static final int TAG_ROW = 'R';
    /** An object row followed by its ACL: written for every object that is not private. */
    public static final int TAG_ROW_WITH_ACL = 'A';
    /**
     * An object row of a multipart object with its ACL and its part sizes (manifest version 4):
     * written for every such object whose part layout the source recorded.
     */
    public static final int TAG_ROW_WITH_PARTS = 'P';
    public static final int TAG_END = 'E';
    /**
     * One version of a key in a bucket whose versioning is configured: its place, version id,
     * whether it is a delete marker, then the object row (manifest version 3).
     */
    public static final int TAG_VERSION = 'V';
    /** Flag of a version row: a delete marker (no object row follows, only its time). */
    public static final int FLAG_DELETE_MARKER = 1;
    /** Flag of a version row: the part sizes follow the ACL (manifest version 4). */
    public static final int FLAG_PART_SIZES = 2;
    /** The most parts an S3 multipart upload may have. */
    public static final int MAX_PARTS = 10_000;
    /** The longest place a version row may carry. */
    public static final int MAX_ORDER_BYTES = 255;
    public static final int TAG_TRAILER = 'T';
    private static final int MAX_STRING = 64 << 20;

    private RowCodec() {
    }

    /** A bucket; {@code withVersioning}: manifest version 3, which adds the versioning state. */
    public static void writeBucket(DataOutput out, BucketInfo b, boolean withVersioning) throws IOException {
        writeBucket(out, b, withVersioning, false);
    }

    /** A bucket; {@code withDocuments}: manifest version 5, which adds its configuration documents. */
    public static void writeBucket(DataOutput out, BucketInfo b, boolean withVersioning, boolean withDocuments)
            throws IOException {
        out.writeByte(TAG_BUCKET);
        writeString(out, b.name());
        out.writeLong(b.createdMillis());
        out.writeByte(b.acl().code());
        if (withVersioning) {
            out.writeByte(b.versioning().code());
        } else if (b.versioning() != Versioning.UNVERSIONED) {
            throw new IllegalArgumentException("bucket " + b.name() + " has versioning: needs manifest version 3");
        }
        if (withDocuments) {
            writeMap(out, b.documents());
        } else if (!b.documents().isEmpty()) {
            throw new IllegalArgumentException("bucket " + b.name() + " has configuration documents: needs manifest version 5");
        }
    }

    /** A bucket whose tag byte was already read. */
    public static BucketInfo readBucket(DataInput in, boolean withVersioning) throws IOException {
        return readBucket(in, withVersioning, false);
    }

    /** A bucket whose tag byte was already read; {@code withDocuments}: of manifest version 5. */
    public static BucketInfo readBucket(DataInput in, boolean withVersioning, boolean withDocuments) throws IOException {
        String name = readString(in);
        long created = in.readLong();
        BucketAcl acl = BucketAcl.ofCode(in.readUnsignedByte());
        Versioning versioning = withVersioning ? Versioning.ofCode(in.readUnsignedByte()) : Versioning.UNVERSIONED;
        Map<String, String> documents = withDocuments ? readMap(in) : Map.of();
        return new BucketInfo(name, created, acl, versioning, documents);
    }

    /** Whether {@code tag} starts a row (an object row or a version row). */
    public static boolean isRow(int tag) {
        return tag == TAG_ROW || tag == TAG_ROW_WITH_ACL || tag == TAG_ROW_WITH_PARTS || tag == TAG_VERSION;
    }

    public static void writeRow(DataOutput out, BackupRow row) throws IOException {
        if (row.isVersion()) {
            writeVersion(out, row);
            return;
        }
        ObjectInfo o = row.info();
        ObjectAttributes a = o.attributes() == null ? ObjectAttributes.EMPTY : o.attributes();
        // Private objects keep the first layout, so an archive without public objects reads with older jobs.
        boolean withParts = row.partSizes() != null;
        boolean withAcl = withParts || a.acl() != BucketAcl.PRIVATE;
        out.writeByte(withParts ? TAG_ROW_WITH_PARTS : withAcl ? TAG_ROW_WITH_ACL : TAG_ROW);
        writeString(out, row.bucket());
        writeString(out, o.key());
        writeObjectFields(out, o);
        if (withAcl) {
            out.writeByte(a.acl().code());
        }
        if (withParts) {
            writePartSizes(out, row.partSizes());
        }
    }

    private static void writePartSizes(DataOutput out, long[] sizes) throws IOException {
        out.writeInt(sizes.length);
        for (long s : sizes) {
            out.writeLong(s);
        }
    }

    private static long[] readPartSizes(DataInput in, String key) throws IOException {
        int n = in.readInt();
        if (n < 1 || n > MAX_PARTS) {
            throw new IOException("corrupt archive: " + key + " has " + n + " part sizes");
        }
        long[] sizes = new long[n];
        for (int i = 0; i < n; i++) {
            sizes[i] = in.readLong();
        }
        return sizes;
    }

    private static void writeVersion(DataOutput out, BackupRow row) throws IOException {
        ObjectVersion v = row.version().version();
        byte[] order = row.order();
        out.writeByte(TAG_VERSION);
        writeString(out, row.bucket());
        writeString(out, row.key());
        if (order == null) {
            out.writeByte(0);
        } else {
            if (order.length == 0 || order.length > MAX_ORDER_BYTES) {
                throw new IllegalArgumentException(row.key() + ": a place of " + order.length + " bytes");
            }
            out.writeByte(order.length);
            out.write(order);
        }
        writeString(out, v.versionId());
        long[] parts = row.partSizes();
        out.writeByte(v.deleteMarker() ? FLAG_DELETE_MARKER : parts != null ? FLAG_PART_SIZES : 0);
        if (v.deleteMarker()) {
            out.writeLong(v.lastModified());
            return;
        }
        ObjectInfo o = row.info();
        writeObjectFields(out, o);
        out.writeByte(o.acl().code());
        if (parts != null) {
            writePartSizes(out, parts);
        }
    }

    private static void writeObjectFields(DataOutput out, ObjectInfo o) throws IOException {
        ObjectAttributes a = o.attributes() == null ? ObjectAttributes.EMPTY : o.attributes();
        out.write(Hex.decode(o.sha256()));
        out.writeLong(o.size());
        writeString(out, o.etag());
        out.writeLong(o.lastModified());
        out.writeInt(o.partCount());
        writeString(out, a.contentType());
        writeString(out, a.cacheControl());
        writeString(out, a.contentDisposition());
        writeString(out, a.contentEncoding());
        writeString(out, a.contentLanguage());
        writeString(out, a.expires());
        writeMap(out, a.userMetadata());
        writeMap(out, o.checksums());
    }

    /** A row whose tag byte, {@code tag} ({@link #isRow}), was already read. */
    public static BackupRow readRow(DataInput in, int tag) throws IOException {
        String bucket = readString(in);
        String key = readString(in);
        if (tag == TAG_VERSION) {
            return readVersion(in, bucket, key);
        }
        ObjectInfo o = readObjectFields(in, key);
        if (tag == TAG_ROW_WITH_ACL || tag == TAG_ROW_WITH_PARTS) {
            o = o.withAttributes(o.attributes().withAcl(BucketAcl.ofCode(in.readUnsignedByte())));
        }
        if (tag == TAG_ROW_WITH_PARTS) {
            return new BackupRow(bucket, o, checkedLayout(o, readPartSizes(in, key)));
        }
        return new BackupRow(bucket, o);
    }

    private static BackupRow readVersion(DataInput in, String bucket, String key) throws IOException {
        int orderLength = in.readUnsignedByte();
        byte[] order = null;
        if (orderLength > 0) {
            order = new byte[orderLength];
            in.readFully(order);
        }
        String versionId = readString(in);
        if (versionId == null || versionId.isEmpty()) {
            throw new IOException("corrupt archive: version row of " + key + " without version id");
        }
        int flags = in.readUnsignedByte();
        if ((flags & ~(FLAG_DELETE_MARKER | FLAG_PART_SIZES)) != 0 || flags == (FLAG_DELETE_MARKER | FLAG_PART_SIZES)) {
            throw new IOException("corrupt archive: version row of " + key + ": unknown flags " + flags);
        }
        if ((flags & FLAG_DELETE_MARKER) != 0) {
            if (order == null) {
                throw new IOException("corrupt archive: delete marker of " + key + " without place");
            }
            long modified = in.readLong();
            return BackupRow.ofVersion(bucket, new VersionRecord(ObjectVersion.marker(key, versionId, modified, false), order));
        }
        ObjectInfo o = readObjectFields(in, key);
        o = o.withAttributes(o.attributes().withAcl(BucketAcl.ofCode(in.readUnsignedByte()))).withVersionId(versionId);
        long[] parts = (flags & FLAG_PART_SIZES) != 0 ? checkedLayout(o, readPartSizes(in, key)) : null;
        return BackupRow.ofVersion(bucket, new VersionRecord(ObjectVersion.of(o, false), order, parts));
    }

    private static long[] checkedLayout(ObjectInfo o, long[] sizes) throws IOException {
        String wrong = VersionRecord.wrongLayout(o, sizes);
        if (wrong != null) {
            throw new IOException("corrupt archive: " + o.key() + ": " + wrong);
        }
        return sizes;
    }

    private static ObjectInfo readObjectFields(DataInput in, String key) throws IOException {
        byte[] sha = new byte[32];
        in.readFully(sha);
        long size = in.readLong();
        String etag = readString(in);
        long lastModified = in.readLong();
        int partCount = in.readInt();
        ObjectAttributes attributes = new ObjectAttributes(readString(in), readString(in), readString(in),
                readString(in), readString(in), readString(in), readMap(in));
        Map<String, String> checksums = readMap(in);
        return new ObjectInfo(key, Hex.encode(sha), size, etag, attributes, lastModified, partCount, checksums);
    }

    public static void writeString(DataOutput out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    public static String readString(DataInput in) throws IOException {
        int n = in.readInt();
        if (n == -1) {
            return null;
        }
        if (n < 0 || n > MAX_STRING) {
            throw new IOException("corrupt archive: string length " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static void writeMap(DataOutput out, Map<String, String> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<String, String> e : map.entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    private static Map<String, String> readMap(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 1 << 20) {
            throw new IOException("corrupt archive: map of " + n + " entries");
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            map.put(readString(in), readString(in));
        }
        return map;
    }
}
