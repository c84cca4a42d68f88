package dev.cairn.store;

import dev.cairn.engine.CorruptionException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The byte layouts of the embedded store's rows (see docs/service.md, "Embedded layout").
 * Integers are unsigned LEB128 varints; strings are a varint byte length then UTF-8; an
 * optional string is a presence byte (0 or 1) then the string. Every value starts with a
 * format version byte. Stateless; thread-safe.
 */
final class RowCodec {

    /** DO NOT CHANGE: embedded in on-disk data. */
    static final int FORMAT_VERSION = 1;

    private RowCodec() {
    }

    static byte[] encodeBucket(BucketInfo b) {
        Writer w = new Writer();
        w.u8(FORMAT_VERSION);
        w.varint(b.createdMillis());
        w.u8(b.acl().code());
        return w.bytes();
    }

    static BucketInfo decodeBucket(String name, byte[] v) throws CorruptionException {
        Reader r = new Reader(v, "buckets/" + name);
        r.version();
        long created = r.varint();
        BucketAcl acl;
        try {
            acl = BucketAcl.ofCode(r.u8());
        } catch (IllegalArgumentException e) {
            throw new CorruptionException("buckets/" + name + ": " + e.getMessage());
        }
        return new BucketInfo(name, created, acl);
    }

    /** The layout of object rows before they were engine rows (decodeObject still reads it); for tests. */
    static byte[] encodeObject(ObjectInfo o) {
        Writer w = new Writer();
        w.u8(FORMAT_VERSION);
        w.raw(Hex.decode(o.sha256()));
        w.varint(o.size());
        w.string(o.etag());
        w.varint(o.lastModified());
        w.varint(o.partCount());
        writeAttributes(w, o.attributes());
        w.map(o.checksums());
        return w.bytes();
    }

    static ObjectInfo decodeObject(String key, byte[] v) throws CorruptionException {
        Reader r = new Reader(v, "objects/" + key);
        r.version();
        String sha = Hex.encode(r.raw(32));
        long size = r.varint();
        String etag = r.string();
        long modified = r.varint();
        int parts = (int) r.varint();
        ObjectAttributes attrs = readAttributes(r);
        Map<String, String> checksums = r.map();
        r.end();
        return new ObjectInfo(key, sha, size, etag, attrs, modified, parts, checksums);
    }

    static byte[] encodeUpload(UploadInfo u) {
        Writer w = new Writer();
        w.u8(FORMAT_VERSION);
        w.varint(u.initiatedMillis());
        writeAttributes(w, u.attributes());
        return w.bytes();
    }

    static UploadInfo decodeUpload(String bucket, String key, String uploadId, byte[] v) throws CorruptionException {
        Reader r = new Reader(v, "uploads/" + uploadId);
        r.version();
        long initiated = r.varint();
        ObjectAttributes attrs = readAttributes(r);
        r.end();
        return new UploadInfo(bucket, key, uploadId, attrs, initiated);
    }

    static byte[] encodePart(PartInfo p) {
        Writer w = new Writer();
        w.u8(FORMAT_VERSION);
        w.raw(Hex.decode(p.sha256()));
        w.varint(p.size());
        w.string(p.etag());
        w.varint(p.lastModified());
        return w.bytes();
    }

    static PartInfo decodePart(int partNumber, byte[] v, String where) throws CorruptionException {
        Reader r = new Reader(v, where);
        r.version();
        String sha = Hex.encode(r.raw(32));
        long size = r.varint();
        String etag = r.string();
        long modified = r.varint();
        r.end();
        return new PartInfo(partNumber, sha, size, etag, modified);
    }

    static byte[] encodeCount(long n) {
        Writer w = new Writer();
        w.varint(n);
        return w.bytes();
    }

    static long decodeCount(byte[] v, String where) throws CorruptionException {
        Reader r = new Reader(v, where);
        long n = r.varint();
        r.end();
        return n;
    }

    private static void writeAttributes(Writer w, ObjectAttributes a) {
        w.optional(a.contentType());
        w.optional(a.cacheControl());
        w.optional(a.contentDisposition());
        w.optional(a.contentEncoding());
        w.optional(a.contentLanguage());
        w.optional(a.expires());
        w.map(a.userMetadata());
    }

    private static ObjectAttributes readAttributes(Reader r) throws CorruptionException {
        return new ObjectAttributes(r.optional(), r.optional(), r.optional(), r.optional(), r.optional(),
                r.optional(), r.map());
    }

    private static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(128);

        void u8(int v) {
            out.write(v);
        }

        void raw(byte[] b) {
            out.writeBytes(b);
        }

        void varint(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(b.length);
            raw(b);
        }

        void optional(String s) {
            if (s == null) {
                u8(0);
            } else {
                u8(1);
                string(s);
            }
        }

        void map(Map<String, String> m) {
            varint(m.size());
            for (Map.Entry<String, String> e : m.entrySet()) {
                string(e.getKey());
                string(e.getValue());
            }
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    private static final class Reader {
        private final byte[] b;
        private final String where;
        private int pos;

        Reader(byte[] b, String where) {
            this.b = b;
            this.where = where;
        }

        void version() throws CorruptionException {
            int v = u8();
            if (v != FORMAT_VERSION) {
                throw corrupt("unknown format version " + v);
            }
        }

        int u8() throws CorruptionException {
            if (pos >= b.length) {
                throw corrupt("truncated");
            }
            return b[pos++] & 0xFF;
        }

        byte[] raw(int n) throws CorruptionException {
            if (n < 0 || b.length - pos < n) {
                throw corrupt("truncated");
            }
            byte[] r = java.util.Arrays.copyOfRange(b, pos, pos + n);
            pos += n;
            return r;
        }

        long varint() throws CorruptionException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int x = u8();
                v |= (long) (x & 0x7F) << shift;
                if ((x & 0x80) == 0) {
                    return v;
                }
            }
            throw corrupt("varint too long");
        }

        String string() throws CorruptionException {
            long n = varint();
            if (n > Integer.MAX_VALUE) {
                throw corrupt("string too long");
            }
            return new String(raw((int) n), StandardCharsets.UTF_8);
        }

        String optional() throws CorruptionException {
            int present = u8();
            if (present > 1) {
                throw corrupt("bad presence byte " + present);
            }
            return present == 1 ? string() : null;
        }

        Map<String, String> map() throws CorruptionException {
            long n = varint();
            if (n > b.length) {
                throw corrupt("bad map size " + n);
            }
            Map<String, String> m = new LinkedHashMap<>();
            for (long i = 0; i < n; i++) {
                m.put(string(), string());
            }
            return m;
        }

        void end() throws CorruptionException {
            if (pos != b.length) {
                throw corrupt((b.length - pos) + " trailing bytes");
            }
        }

        private CorruptionException corrupt(String what) {
            return new CorruptionException("row " + where + " at offset " + pos + ": " + what);
        }
    }
}
