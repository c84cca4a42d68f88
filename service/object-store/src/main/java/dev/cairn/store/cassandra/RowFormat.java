package dev.cairn.store.cassandra;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.PartInfo;
import dev.cairn.store.VersionId;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * The blobs of the Cassandra store's rows (docs/cassandra-internals.md, "Data model"). An object or part
 * row is one cell, so that concurrent writes never mix: the 16-byte {@link WriteId} first, then
 * a format version byte, the content's SHA-256 (32 bytes), its generation (16 bytes), then the
 * fields in {@link java.io.DataOutputStream} encoding; an optional string is a presence byte then
 * modified UTF-8. Byte by byte in docs/format/object-record.md ("Cassandra cell").
 *
 * <p>A format of its own, not {@link dev.cairn.store.ObjectRecordCodec}'s: the write id must come
 * first (Cassandra reconciles equal timestamps by the cell's bytes), the content generation is
 * Cassandra's alone, cells in this layout are already stored, and during a rolling upgrade every
 * node reads the cells every other node writes. Stateless; thread-safe.
 */
final class RowFormat {
    /** DO NOT CHANGE: embedded in stored data. */
    static final int VERSION = 1;
    /** DO NOT CHANGE: the trailing byte of an object version that has an id. */
    static final int VERSION_WITH_ID = 1;

    private RowFormat() {
    }

    /** An object or part row: who wrote it, where its content lives, and what it describes. */
    record Stored<T>(WriteId writeId, UUID generation, T value) {
    }

    static ByteBuffer encodeObject(WriteId wid, UUID generation, ObjectInfo o) {
        return write(out -> {
            header(out, wid, o.sha256(), generation);
            out.writeLong(o.size());
            out.writeUTF(o.etag());
            attributes(out, o.attributes());
            out.writeLong(o.lastModified());
            out.writeInt(o.partCount());
            map(out, o.checksums());
            // A private object's cell ends here, as cells written before objects had ACLs (and
            // nodes of those versions, which stop reading here, see the object as private).
            // A version with an id (written while its bucket's versioning was Enabled) adds its
            // ACL whatever it is, then a byte saying so: its id is derived from the write id.
            boolean hasId = o.versionId() != null && !VersionId.NULL.equals(o.versionId());
            if (o.acl() != BucketAcl.PRIVATE || hasId) {
                out.writeByte(o.acl().code());
            }
            if (hasId) {
                out.writeByte(VERSION_WITH_ID);
            }
        });
    }

    static Stored<ObjectInfo> decodeObject(String key, ByteBuffer blob) {
        return read(blob, "object " + key, (wid, sha, gen, in) -> {
            long size = in.readLong();
            String etag = in.readUTF();
            ObjectAttributes attributes = readAttributes(in);
            long lastModified = in.readLong();
            int partCount = in.readInt();
            Map<String, String> checksums = readMap(in);
            int acl = in.read();
            if (acl >= 0 && acl != BucketAcl.PUBLIC_READ.code() && acl != BucketAcl.PRIVATE.code()) {
                throw new IOException("unknown object ACL code " + acl);
            }
            int version = in.read();
            if (version >= 0 && version != VERSION_WITH_ID) {
                throw new IOException("unknown version flag " + version);
            }
            return new Stored<>(wid, gen, new ObjectInfo(key, sha, size, etag,
                    acl == BucketAcl.PUBLIC_READ.code() ? attributes.withAcl(BucketAcl.PUBLIC_READ) : attributes,
                    lastModified, partCount, checksums, version == VERSION_WITH_ID ? VersionRows.idOf(wid) : null));
        });
    }

    static ByteBuffer encodePart(WriteId wid, UUID generation, PartInfo p) {
        return write(out -> {
            header(out, wid, p.sha256(), generation);
            out.writeLong(p.size());
            out.writeUTF(p.etag());
            out.writeLong(p.lastModified());
        });
    }

    static Stored<PartInfo> decodePart(int partNumber, ByteBuffer blob) {
        return read(blob, "part " + partNumber, (wid, sha, gen, in) -> new Stored<>(wid, gen,
                new PartInfo(partNumber, sha, in.readLong(), in.readUTF(), in.readLong())));
    }

    static ByteBuffer encodeUpload(ObjectAttributes a, long initiatedMillis) {
        return write(out -> {
            out.writeByte(VERSION);
            out.writeLong(initiatedMillis);
            attributes(out, a);
        });
    }

    /** The attributes and initiation time of an upload row. */
    record UploadRow(ObjectAttributes attributes, long initiatedMillis) {
    }

    static UploadRow decodeUpload(ByteBuffer blob) {
        try {
            DataInputStream in = input(blob);
            version(in, "upload");
            long initiated = in.readLong();
            return new UploadRow(readAttributes(in), initiated);
        } catch (IOException e) {
            throw new IllegalStateException("a stored upload row is malformed: " + e.getMessage(), e);
        }
    }

    /** The write id at the front of an object or part row, without decoding the rest. */
    static WriteId writeIdOf(ByteBuffer blob) {
        return WriteId.of(blob);
    }

    private interface Body {
        void write(DataOutputStream out) throws IOException;
    }

    private interface Decoder<T> {
        Stored<T> decode(WriteId wid, String sha256, UUID generation, DataInputStream in) throws IOException;
    }

    private static ByteBuffer write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            body.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ByteBuffer.wrap(bytes.toByteArray());
    }

    private static <T> Stored<T> read(ByteBuffer blob, String what, Decoder<T> decoder) {
        try {
            DataInputStream in = input(blob);
            byte[] wid = new byte[WriteId.LENGTH];
            in.readFully(wid);
            version(in, what);
            byte[] sha = new byte[32];
            in.readFully(sha);
            UUID gen = new UUID(in.readLong(), in.readLong());
            return decoder.decode(new WriteId(wid), Hex.encode(sha), gen, in);
        } catch (IOException e) {
            throw new IllegalStateException("the stored row of " + what + " is malformed: " + e.getMessage(), e);
        }
    }

    private static DataInputStream input(ByteBuffer blob) {
        ByteBuffer b = blob.duplicate();
        byte[] a = new byte[b.remaining()];
        b.get(a);
        return new DataInputStream(new java.io.ByteArrayInputStream(a));
    }

    private static void version(DataInputStream in, String what) throws IOException {
        int v = in.readUnsignedByte();
        if (v != VERSION) {
            throw new IOException(what + " has row format " + v + ", this version reads " + VERSION);
        }
    }

    private static void header(DataOutputStream out, WriteId wid, String sha256, UUID generation) throws IOException {
        out.write(wid.bytes());
        out.writeByte(VERSION);
        out.write(Hex.decode(sha256));
        out.writeLong(generation.getMostSignificantBits());
        out.writeLong(generation.getLeastSignificantBits());
    }

    private static void attributes(DataOutputStream out, ObjectAttributes a) throws IOException {
        optional(out, a.contentType());
        optional(out, a.cacheControl());
        optional(out, a.contentDisposition());
        optional(out, a.contentEncoding());
        optional(out, a.contentLanguage());
        optional(out, a.expires());
        map(out, a.userMetadata());
    }

    private static ObjectAttributes readAttributes(DataInputStream in) throws IOException {
        return new ObjectAttributes(readOptional(in), readOptional(in), readOptional(in), readOptional(in),
                readOptional(in), readOptional(in), readMap(in));
    }

    private static void optional(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String readOptional(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }

    private static void map(DataOutputStream out, Map<String, String> m) throws IOException {
        out.writeInt(m.size());
        for (Map.Entry<String, String> e : m.entrySet()) {
            out.writeUTF(e.getKey());
            out.writeUTF(e.getValue());
        }
    }

    private static Map<String, String> readMap(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 100_000) {
            throw new IOException("map of " + n + " entries");
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            m.put(in.readUTF(), in.readUTF());
        }
        return m;
    }
}
