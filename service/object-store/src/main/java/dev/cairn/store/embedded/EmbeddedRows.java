package dev.cairn.store.embedded;

import dev.cairn.engine.CorruptionException;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.Hex;
import dev.cairn.store.PartInfo;
import dev.cairn.store.RowBytes;
import dev.cairn.store.UploadInfo;
import dev.cairn.store.Versioning;

/**
 * The values of the embedded store's bookkeeping rows — buckets, uploads, parts, and the counts
 * of {@code blobs} and {@code refs} — in the varint layout of {@link RowBytes}
 * (docs/format/object-record.md, "Embedded rows"). Object rows are engine rows
 * ({@link ObjectRow}). Every value but a count starts with format version byte 1. Stateless;
 * thread-safe.
 */
final class EmbeddedRows {

    /** DO NOT CHANGE: embedded in on-disk data. */
    static final int FORMAT_VERSION = 1;
    private static final int SHA_BYTES = 32;

    private EmbeddedRows() {
    }

    static byte[] encodeBucket(BucketInfo b) {
        RowBytes.Writer w = new RowBytes.Writer().u8(FORMAT_VERSION).varint(b.createdMillis()).u8(b.acl().code());
        // A bucket whose versioning was never configured and that has no documents keeps the row
        // written before versioning existed; documents follow the versioning code, 0 included.
        if (b.versioning() != Versioning.UNVERSIONED || !b.documents().isEmpty()) {
            w.u8(b.versioning().code());
        }
        if (!b.documents().isEmpty()) {
            w.map(b.documents());
        }
        return w.bytes();
    }

    static BucketInfo decodeBucket(String name, byte[] v) throws CorruptionException {
        RowBytes.Reader r = new RowBytes.Reader(v, "buckets/" + name);
        r.version(FORMAT_VERSION);
        long created = r.varint();
        BucketAcl acl;
        try {
            acl = BucketAcl.ofCode(r.u8());
        } catch (IllegalArgumentException e) {
            throw new CorruptionException("buckets/" + name + ": " + e.getMessage());
        }
        Versioning versioning = Versioning.UNVERSIONED;
        java.util.Map<String, String> documents = java.util.Map.of();
        if (r.remaining() > 0) {
            int code = r.u8();
            boolean withDocuments = r.remaining() > 0;
            if (code != Versioning.ENABLED.code() && code != Versioning.SUSPENDED.code()
                    && !(withDocuments && code == Versioning.UNVERSIONED.code())) {
                throw new CorruptionException("buckets/" + name + ": unknown versioning code " + code);
            }
            versioning = Versioning.ofCode(code);
            if (withDocuments) {
                documents = r.map();
                if (documents.isEmpty()) {
                    throw new CorruptionException("buckets/" + name + ": an empty document map");
                }
            }
        }
        r.end();
        return new BucketInfo(name, created, acl, versioning, documents);
    }

    static byte[] encodeUpload(UploadInfo u) {
        return new RowBytes.Writer().u8(FORMAT_VERSION).varint(u.initiatedMillis()).attributes(u.attributes()).bytes();
    }

    static UploadInfo decodeUpload(String bucket, String key, String uploadId, byte[] v) throws CorruptionException {
        RowBytes.Reader r = new RowBytes.Reader(v, "uploads/" + uploadId);
        r.version(FORMAT_VERSION);
        long initiated = r.varint();
        UploadInfo u = new UploadInfo(bucket, key, uploadId, r.attributes(), initiated);
        r.end();
        return u;
    }

    static byte[] encodePart(PartInfo p) {
        return new RowBytes.Writer()
                .u8(FORMAT_VERSION)
                .raw(Hex.decode(p.sha256()))
                .varint(p.size())
                .string(p.etag())
                .varint(p.lastModified())
                .bytes();
    }

    static PartInfo decodePart(int partNumber, byte[] v, String where) throws CorruptionException {
        RowBytes.Reader r = new RowBytes.Reader(v, where);
        r.version(FORMAT_VERSION);
        String sha = Hex.encode(r.raw(SHA_BYTES));
        long size = r.varint();
        String etag = r.string();
        long modified = r.varint();
        r.end();
        return new PartInfo(partNumber, sha, size, etag, modified);
    }

    static byte[] encodeCount(long n) {
        return new RowBytes.Writer().varint(n).bytes();
    }

    static long decodeCount(byte[] v, String where) throws CorruptionException {
        RowBytes.Reader r = new RowBytes.Reader(v, where);
        long n = r.varint();
        r.end();
        return n;
    }
}
