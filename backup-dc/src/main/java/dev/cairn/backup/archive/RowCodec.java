package dev.cairn.backup.archive;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
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
    public static final int TAG_END = 'E';
    /**
     * Reserved for the rows of object versions (a bucket's noncurrent versions and delete
     * markers); no reader of manifest version 2 accepts it, so an archive holding them is refused
     * by jobs that could not restore them.
     */
    public static final int TAG_RESERVED_VERSION = 'V';
    public static final int TAG_TRAILER = 'T';
    private static final int MAX_STRING = 64 << 20;

    private RowCodec() {
    }

    public static void writeBucket(DataOutput out, BucketInfo b) throws IOException {
        out.writeByte(TAG_BUCKET);
        writeString(out, b.name());
        out.writeLong(b.createdMillis());
        out.writeByte(b.acl().code());
    }

    /** A bucket whose tag byte was already read. */
    public static BucketInfo readBucket(DataInput in) throws IOException {
        String name = readString(in);
        long created = in.readLong();
        return new BucketInfo(name, created, BucketAcl.ofCode(in.readUnsignedByte()));
    }

    /** Whether {@code tag} starts an object row. */
    public static boolean isRow(int tag) {
        return tag == TAG_ROW || tag == TAG_ROW_WITH_ACL;
    }

    public static void writeRow(DataOutput out, BackupRow row) throws IOException {
        ObjectInfo o = row.info();
        ObjectAttributes a = o.attributes() == null ? ObjectAttributes.EMPTY : o.attributes();
        // Private objects keep the first layout, so an archive without public objects reads with older jobs.
        boolean withAcl = a.acl() != BucketAcl.PRIVATE;
        out.writeByte(withAcl ? TAG_ROW_WITH_ACL : TAG_ROW);
        writeString(out, row.bucket());
        writeString(out, o.key());
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
        if (withAcl) {
            out.writeByte(a.acl().code());
        }
    }

    /** A row whose tag byte, {@code tag} ({@link #isRow}), was already read. */
    public static BackupRow readRow(DataInput in, int tag) throws IOException {
        String bucket = readString(in);
        String key = readString(in);
        byte[] sha = new byte[32];
        in.readFully(sha);
        long size = in.readLong();
        String etag = readString(in);
        long lastModified = in.readLong();
        int partCount = in.readInt();
        ObjectAttributes attributes = new ObjectAttributes(readString(in), readString(in), readString(in),
                readString(in), readString(in), readString(in), readMap(in));
        Map<String, String> checksums = readMap(in);
        if (tag == TAG_ROW_WITH_ACL) {
            attributes = attributes.withAcl(BucketAcl.ofCode(in.readUnsignedByte()));
        }
        return new BackupRow(bucket, new ObjectInfo(key, Hex.encode(sha), size, etag, attributes, lastModified,
                partCount, checksums));
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
