package dev.cairn.backup.archive;

import dev.cairn.store.BucketInfo;
import dev.cairn.store.Versioning;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.DataInput;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a manifest front to back: {@link #header()}, then {@link #next()} until null, which also
 * reads the trailer and checks the checksum and counts. Any damage is an {@link IOException}
 * naming what is wrong. Not thread-safe.
 */
public final class ManifestReader implements AutoCloseable {
    /** Bytes from the trailer's tag to the end of the file. */
    public static final int TRAILER_BYTES = 1 + 4 * 8 + 32;

    private final String name;
    private final BufferedDataInput in;
    private final int formatVersion;
    private final ManifestHeader header;
    private ManifestTrailer trailer;
    private final Map<String, BucketInfo> buckets = new HashMap<>();
    private BackupRow last;
    private long objects;
    private long logicalBytes;

    public ManifestReader(String name, InputStream source) throws IOException {
        this.name = name;
        in = new BufferedDataInput(source, 1 << 16, ManifestWriter.sha256());
        try {
            formatVersion = readVersion(in, name);
            header = readHeader(in, name, formatVersion);
            header.buckets().forEach(b -> buckets.put(b.name(), b));
        } catch (EOFException e) {
            throw corrupt("truncated header");
        } catch (IOException | RuntimeException e) {
            throw named(name, e);
        }
    }

    /**
     * Any failure to decode as an error naming the manifest: a damaged length or setting surfaces
     * from the decoders as an exception that knows nothing of the file.
     */
    private static IOException named(String name, Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof IOException io && m.startsWith(name)) {
            return io;
        }
        return new IOException(name + ": corrupt manifest: " + m.replace("corrupt archive: ", ""), e);
    }

    static ManifestHeader readHeader(DataInput in, String name) throws IOException {
        return readHeader(in, name, readVersion(in, name));
    }

    /** The magic and the format version, checked. */
    private static int readVersion(DataInput in, String name) throws IOException {
        byte[] magic = new byte[ManifestWriter.MAGIC.length];
        in.readFully(magic);
        if (!Arrays.equals(magic, ManifestWriter.MAGIC)) {
            throw new IOException(name + ": not a backup manifest (bad magic)");
        }
        int version = in.readUnsignedShort();
        if (version < ManifestWriter.OLDEST_VERSION || version > ManifestWriter.VERSION) {
            throw new IOException(name + ": manifest version " + version + " is not supported (this build reads "
                    + ManifestWriter.OLDEST_VERSION + " to " + ManifestWriter.VERSION + ")");
        }
        return version;
    }

    private static ManifestHeader readHeader(DataInput in, String name, int version) throws IOException {
        boolean withVersioning = version >= ManifestWriter.VERSION_WITH_VERSIONS;
        if (in.readUnsignedByte() != ManifestWriter.TAG_HEADER) {
            throw new IOException(name + ": corrupt manifest: no header");
        }
        String id = RowCodec.readString(in);
        String parent = RowCodec.readString(in);
        long started = in.readLong();
        long finished = in.readLong();
        String source = RowCodec.readString(in);
        int n = in.readInt();
        if (n < 0) {
            throw new IOException(name + ": corrupt manifest: bucket count " + n);
        }
        List<BucketInfo> buckets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (in.readUnsignedByte() != RowCodec.TAG_BUCKET) {
                throw new IOException(name + ": corrupt manifest: bucket " + i + " has no bucket tag");
            }
            buckets.add(RowCodec.readBucket(in, withVersioning, version >= ManifestWriter.VERSION_WITH_DOCUMENTS));
        }
        return new ManifestHeader(id, parent, started, finished, source, buckets);
    }

    /** Only the header of a manifest, without reading the rest. */
    public static ManifestHeader readHeader(String name, InputStream source) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(source, 1 << 14))) {
            return readHeader(in, name);
        } catch (EOFException e) {
            throw new IOException(name + ": corrupt manifest: truncated header");
        } catch (IOException | RuntimeException e) {
            throw named(name, e);
        }
    }

    /** Only the trailer, from the last {@link #TRAILER_BYTES} bytes of a manifest; the checksum is not checked. */
    public static ManifestTrailer readTrailer(String name, InputStream lastBytes) throws IOException {
        try (DataInputStream in = new DataInputStream(lastBytes)) {
            if (in.readUnsignedByte() != RowCodec.TAG_TRAILER) {
                throw new IOException(name + ": incomplete manifest: no trailer");
            }
            return new ManifestTrailer(in.readLong(), in.readLong(), in.readLong(), in.readLong());
        } catch (EOFException e) {
            throw new IOException(name + ": incomplete manifest: truncated trailer");
        }
    }

    public ManifestHeader header() {
        return header;
    }

    /** The next row, or null after the last one (the trailer then checked). */
    public BackupRow next() throws IOException {
        if (trailer != null) {
            return null;
        }
        try {
            int tag = in.readUnsignedByte();
            if (RowCodec.isRow(tag)) {
                BackupRow row = readRow(tag);
                if (last != null && BackupRow.ORDER.compare(last, row) >= 0) {
                    throw corrupt("rows out of order at " + row.bucket() + "/" + row.key());
                }
                String wrong = wrongKind(row, buckets.get(row.bucket()));
                if (wrong != null) {
                    throw corrupt("row " + (objects + 1) + ": " + wrong);
                }
                last = row;
                objects++;
                logicalBytes += row.size();
                return row;
            }
            if (tag != RowCodec.TAG_TRAILER) {
                throw corrupt("unexpected tag " + tag + " after row " + objects);
            }
            ManifestTrailer t = new ManifestTrailer(in.readLong(), in.readLong(), in.readLong(), in.readLong());
            byte[] expected = in.digestSoFar();
            byte[] stored = in.readUndigested(32);
            if (stored.length != 32) {
                throw corrupt("truncated checksum");
            }
            if (!Arrays.equals(expected, stored)) {
                throw corrupt("checksum mismatch");
            }
            if (!in.atEnd()) {
                throw corrupt("bytes after the checksum");
            }
            if (t.objects() != objects || t.logicalBytes() != logicalBytes) {
                throw corrupt("trailer counts " + t.objects() + " objects / " + t.logicalBytes()
                        + " bytes, rows hold " + objects + " / " + logicalBytes);
            }
            trailer = t;
            return null;
        } catch (EOFException e) {
            throw corrupt("truncated after " + objects + " rows");
        } catch (IOException | RuntimeException e) {
            throw named(name, e);
        }
    }

    private BackupRow readRow(int tag) throws IOException {
        BackupRow row;
        try {
            row = RowCodec.readRow(in, tag);
        } catch (EOFException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw corrupt("row " + (objects + 1) + ": " + e.getMessage());
        }
        if (row.bucket() == null || row.key() == null || (row.hasContent() && row.info().etag() == null)) {
            throw corrupt("row " + (objects + 1) + " has no bucket, key or ETag");
        }
        if (row.hasContent() && (row.info().size() < 0 || row.info().partCount() < 0)) {
            throw corrupt("row " + (objects + 1) + ": negative size or part count");
        }
        if (row.partSizes() != null && formatVersion < ManifestWriter.VERSION_WITH_PART_SIZES) {
            throw corrupt("row " + (objects + 1) + " carries part sizes, which manifest version " + formatVersion
                    + " cannot hold");
        }
        return row;
    }

    /**
     * Why {@code row} does not belong in {@code bucket} (as the header lists it; null when it does
     * not), or null when it does: a bucket whose versioning is configured holds version rows only,
     * any other bucket object rows only.
     */
    static String wrongKind(BackupRow row, BucketInfo bucket) {
        boolean versioned = bucket != null && bucket.versioning() != Versioning.UNVERSIONED;
        if (row.isVersion() && !versioned) {
            return "a version row of " + row.bucket() + "/" + row.key() + ", a bucket "
                    + (bucket == null ? "the header does not list" : "without versioning");
        }
        if (!row.isVersion() && versioned) {
            return "an object row of " + row.bucket() + "/" + row.key() + " in a bucket with versioning"
                    + " (its rows are version rows)";
        }
        return null;
    }

    /** The trailer, once {@link #next()} returned null. */
    public ManifestTrailer trailer() {
        return trailer;
    }

    private IOException corrupt(String what) {
        return new IOException(name + ": corrupt manifest: " + what);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
