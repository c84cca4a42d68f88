package dev.cairn.store;

import dev.cairn.engine.CorruptionException;

/**
 * The object record ({@link ObjectInfo} without its key) as bytes: the one byte encoding of the
 * record wherever a store-neutral value is needed — the row cache's entries
 * ({@link RowCachingObjectStore}, memory and SSD tiers) and embedded object rows written before
 * objects were engine rows (read only). Byte by byte in docs/format/object-record.md.
 *
 * <p>Two other forms of the record exist, each the format of one store, kept because data in
 * them exists: the embedded store's engine row ({@code embedded.ObjectRow}: columns, which the
 * engine encodes) and the Cassandra cell ({@code cassandra.RowFormat}: write id and content
 * generation in front, read by every node of a cluster during a rolling upgrade).
 *
 * <p>Stateless; thread-safe.
 */
public final class ObjectRecordCodec {

    /** DO NOT CHANGE: the first byte of every record, in stored data (old embedded rows, SSD cache segments). */
    public static final int FORMAT_VERSION = 1;
    private static final int SHA_BYTES = 32;

    private ObjectRecordCodec() {
    }

    public static byte[] encode(ObjectInfo o) {
        RowBytes.Writer w = new RowBytes.Writer()
                .u8(FORMAT_VERSION)
                .raw(Hex.decode(o.sha256()))
                .varint(o.size())
                .string(o.etag())
                .varint(o.lastModified())
                .varint(o.partCount())
                .attributes(o.attributes())
                .map(o.checksums());
        // A private object's record ends here, as every record written before objects had ACLs.
        if (o.acl() != BucketAcl.PRIVATE) {
            w.u8(o.acl().code());
        }
        return w.bytes();
    }

    /** The record of {@code key}; {@code where} names the row in errors. */
    public static ObjectInfo decode(String key, byte[] v, String where) throws CorruptionException {
        RowBytes.Reader r = new RowBytes.Reader(v, where);
        r.version(FORMAT_VERSION);
        String sha = Hex.encode(r.raw(SHA_BYTES));
        long size = r.varint();
        String etag = r.string();
        long modified = r.varint();
        int parts = (int) r.varint();
        ObjectAttributes attrs = r.attributes();
        java.util.Map<String, String> checksums = r.map();
        BucketAcl acl = BucketAcl.PRIVATE;
        if (r.remaining() > 0) {
            acl = aclOf(r.u8(), where);
        }
        r.end();
        return new ObjectInfo(key, sha, size, etag, attrs.withAcl(acl), modified, parts, checksums);
    }

    /** The ACL of a stored code; a code no version wrote makes the record corrupt. */
    static BucketAcl aclOf(int code, String where) throws CorruptionException {
        if (code == BucketAcl.PUBLIC_READ.code()) {
            return BucketAcl.PUBLIC_READ;
        }
        throw new CorruptionException(where + ": unknown object ACL code " + code);
    }

    /** Whether {@code v} starts as a record does (an engine row starts with another byte). */
    public static boolean isRecord(byte[] v) {
        return v.length > 0 && v[0] == FORMAT_VERSION;
    }
}
