package dev.cairn.backup.archive;

import dev.cairn.store.BucketInfo;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;

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
     */
    public static final int VERSION = 2;
    /** The oldest version this build reads. */
    public static final int OLDEST_VERSION = 1;
    public static final int TAG_HEADER = 'H';

    private final OutputStream raw;
    private final MessageDigest digest;
    private final DataOutputStream out;
    private BackupRow last;
    private long objects;
    private long logicalBytes;
    private boolean finished;

    public ManifestWriter(OutputStream target, ManifestHeader header) throws IOException {
        raw = new BufferedOutputStream(target, 1 << 16);
        digest = sha256();
        out = new DataOutputStream(new DigestOutputStream(raw, digest));
        out.write(MAGIC);
        out.writeShort(VERSION);
        out.writeByte(TAG_HEADER);
        RowCodec.writeString(out, header.backupId());
        RowCodec.writeString(out, header.parentId());
        out.writeLong(header.startedMillis());
        out.writeLong(header.finishedMillis());
        RowCodec.writeString(out, header.source());
        out.writeInt(header.buckets().size());
        for (BucketInfo b : header.buckets()) {
            RowCodec.writeBucket(out, b);
        }
    }

    public void add(BackupRow row) throws IOException {
        if (last != null && BackupRow.ORDER.compare(last, row) >= 0) {
            throw new IllegalStateException("rows out of order: " + last.bucket() + "/" + last.info().key()
                    + " then " + row.bucket() + "/" + row.info().key());
        }
        RowCodec.writeRow(out, row);
        last = row;
        objects++;
        logicalBytes += row.info().size();
    }

    /** Writes the trailer; the stream is complete after this. */
    public ManifestTrailer finish(long copiedBlobs, long copiedBytes) throws IOException {
        ManifestTrailer t = new ManifestTrailer(objects, logicalBytes, copiedBlobs, copiedBytes);
        out.writeByte(RowCodec.TAG_TRAILER);
        out.writeLong(t.objects());
        out.writeLong(t.logicalBytes());
        out.writeLong(t.copiedBlobs());
        out.writeLong(t.copiedBytes());
        out.flush();
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
