package dev.cairn.backup;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.backup.archive.ManifestHeader;
import dev.cairn.backup.archive.ManifestReader;
import dev.cairn.backup.archive.ManifestTrailer;
import dev.cairn.backup.archive.ManifestWriter;
import dev.cairn.backup.archive.RowCodec;
import dev.cairn.store.BucketInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.security.MessageDigest;

/**
 * Manifests as older jobs wrote them, from one this build wrote: version 1 or 2 (buckets without
 * their versioning state), or 3 (with it); rows without part sizes, which no version before 4 had.
 * Written byte by byte as docs/format/backup-archive.md describes those versions.
 */
public final class OlderManifests {
    private OlderManifests() {
    }

    public static byte[] rewrite(byte[] manifest, int version) throws IOException {
        return rewrite(manifest, version, false);
    }

    /** With {@code keepPartSizes}, a damaged one: rows carry part sizes its version cannot hold. */
    public static byte[] rewrite(byte[] manifest, int version, boolean keepPartSizes) throws IOException {
        if (version < 1 || version >= ManifestWriter.VERSION) {
            throw new IllegalArgumentException("not an older version: " + version);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try (ManifestReader r = new ManifestReader("m", new ByteArrayInputStream(manifest))) {
            ManifestHeader h = r.header();
            out.write(ManifestWriter.MAGIC);
            out.writeShort(version);
            out.writeByte(ManifestWriter.TAG_HEADER);
            RowCodec.writeString(out, h.backupId());
            RowCodec.writeString(out, h.parentId());
            out.writeLong(h.startedMillis());
            out.writeLong(h.finishedMillis());
            RowCodec.writeString(out, h.source());
            out.writeInt(h.buckets().size());
            for (BucketInfo b : h.buckets()) {
                RowCodec.writeBucket(out, b, version >= ManifestWriter.VERSION_WITH_VERSIONS);
            }
            for (BackupRow row = r.next(); row != null; row = r.next()) {
                RowCodec.writeRow(out, keepPartSizes ? row : row.withPartSizes(null));
            }
            ManifestTrailer t = r.trailer();
            out.writeByte(RowCodec.TAG_TRAILER);
            out.writeLong(t.objects());
            out.writeLong(t.logicalBytes());
            out.writeLong(t.copiedBlobs());
            out.writeLong(t.copiedBytes());
        }
        out.flush();
        try {
            byte[] body = bytes.toByteArray();
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            bytes.write(md.digest(body));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }
}
