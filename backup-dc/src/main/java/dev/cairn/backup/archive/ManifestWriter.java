package dev.cairn.backup.archive;

import dev.cairn.store.BucketInfo;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes one manifest: header, buckets, rows in {@link BackupRow#ORDER}, trailer with the
 * SHA-256 of every byte before it. Refuses rows out of order. Not thread-safe.
 */
public final class ManifestWriter implements AutoCloseable {
    public static final byte[] MAGIC = "CAIRNBAK".getBytes(StandardCharsets.US_ASCII);
    /**
     * 2: the rows' blobs may lie in packs ({@code packs/}) as well as under {@code blobs/}; the
     * bytes are those of version 1, whose blobs all lie under {@code blobs/}. A job that reads only
     * version 1 refuses a version 2 manifest by its number rather than failing on a missing blob.
     * Written when no bucket had versioning, before version 4.
     */
    public static final int VERSION_WITHOUT_VERSIONS = 2;
    /**
     * 3: buckets carry their versioning state, and a bucket whose versioning is configured has a
     * version row ({@link RowCodec#TAG_VERSION}) per version of each key. Written when some
     * bucket's versioning was configured, before version 4; a job that reads only 2 refuses it by its number.
     */
    public static final int VERSION_WITH_VERSIONS = 3;
    /**
     * 4: a multipart object's row may carry its part sizes ({@link RowCodec#TAG_ROW_WITH_PARTS},
     * {@link RowCodec#FLAG_PART_SIZES}), so a restore serves it by part number again; buckets carry
     * their versioning state as in 3. Written by this build when no bucket has a document; a job that reads only up to 3
     * refuses it by its number rather than failing on an unknown tag.
     */
    public static final int VERSION_WITH_PART_SIZES = 4;
    /**
     * 5: buckets carry their configuration documents (CORS, …) after their versioning state; rows
     * as in 4. Written when some bucket has a document; otherwise this build writes 4, byte for
     * byte as before, so a job that reads only up to 4 still reads every backup without documents
     * and refuses one with them by its number rather than restoring a bucket without them.
     */
    public static final int VERSION_WITH_DOCUMENTS = 5;
    /** The newest version this build writes and reads. */
    public static final int VERSION = VERSION_WITH_DOCUMENTS;
    /** The oldest version this build reads. */
    public static final int OLDEST_VERSION = 1;
    public static final int TAG_HEADER = 'H';

    private final OutputStream raw;
    private final MessageDigest digest;
    private final BufferedDataOutput out;
    private final Map<String, BucketInfo> buckets = new HashMap<>();
    private BackupRow last;
    private long objects;
    private long logicalBytes;
    private boolean finished;

    public ManifestWriter(OutputStream target, ManifestHeader header) throws IOException {
        raw = target;
        digest = sha256();
        out = new BufferedDataOutput(raw, 1 << 16, digest);
        out.write(MAGIC);
        boolean withDocuments = header.buckets().stream().anyMatch(b -> !b.documents().isEmpty());
        out.writeShort(withDocuments ? VERSION_WITH_DOCUMENTS : VERSION_WITH_PART_SIZES);
        out.writeByte(TAG_HEADER);
        RowCodec.writeString(out, header.backupId());
        RowCodec.writeString(out, header.parentId());
        out.writeLong(header.startedMillis());
        out.writeLong(header.finishedMillis());
        RowCodec.writeString(out, header.source());
        out.writeInt(header.buckets().size());
        for (BucketInfo b : header.buckets()) {
            RowCodec.writeBucket(out, b, true, withDocuments);
            buckets.put(b.name(), b);
        }
    }

    public void add(BackupRow row) throws IOException {
        if (last != null && BackupRow.ORDER.compare(last, row) >= 0) {
            throw new IllegalStateException("rows out of order: " + last.bucket() + "/" + last.key()
                    + " then " + row.bucket() + "/" + row.key());
        }
        String wrong = ManifestReader.wrongKind(row, buckets.get(row.bucket()));
        if (wrong != null) {
            throw new IllegalStateException(wrong);
        }
        RowCodec.writeRow(out, row);
        last = row;
        objects++;
        logicalBytes += row.size();
    }

    /** Writes the trailer; the stream is complete after this. */
    public ManifestTrailer finish(long copiedBlobs, long copiedBytes) throws IOException {
        ManifestTrailer t = new ManifestTrailer(objects, logicalBytes, copiedBlobs, copiedBytes);
        out.writeByte(RowCodec.TAG_TRAILER);
        out.writeLong(t.objects());
        out.writeLong(t.logicalBytes());
        out.writeLong(t.copiedBlobs());
        out.writeLong(t.copiedBytes());
        out.drain();
        raw.write(digest.digest());
        raw.flush();
        finished = true;
        return t;
    }

    @Override
    public void close() throws IOException {
        raw.close();
        if (!finished) {
            throw new IllegalStateException("manifest closed before finish()");
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
