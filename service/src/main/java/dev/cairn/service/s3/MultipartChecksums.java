package dev.cairn.service.s3;

import dev.cairn.service.auth.ChecksumAlgorithm;
import dev.cairn.service.auth.StreamingChecksum;
import dev.cairn.store.ContentRead;
import dev.cairn.store.Hex;
import dev.cairn.store.PartInfo;
import dev.cairn.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The checksums of a multipart upload's parts and of the object they complete. Parts are stored
 * by content, so their checksums are computed from their bytes when asked for (SHA-256 is the
 * content address itself) rather than kept. Stateless; thread-safe.
 */
final class MultipartChecksums {
    private static final int BUFFER = 64 * 1024;

    /** The parts' values (base64, in order) and the object's value as S3 reports it. */
    record Result(List<String> parts, String object) {
    }

    private MultipartChecksums() {
    }

    /** The base64 checksum of one stored part. */
    static String ofPart(S3Context ctx, ChecksumAlgorithm a, PartInfo p) throws IOException {
        if (a == ChecksumAlgorithm.SHA256) {
            return Base64.getEncoder().encodeToString(Hex.decode(p.sha256()));
        }
        StreamingChecksum digest = a.newDigest();
        feed(ctx, p, digest, null);
        return digest.base64();
    }

    /** The parts' checksums and the object's: composite ({@code -N}) or of the whole object. */
    static Result compute(S3Context ctx, UploadChecksum c, List<PartInfo> parts) throws IOException {
        ChecksumAlgorithm a = c.algorithm();
        StreamingChecksum whole = c.fullObject() ? a.newDigest() : null;
        StreamingChecksum ofParts = c.fullObject() ? null : a.newDigest();
        List<String> values = new ArrayList<>(parts.size());
        for (PartInfo p : parts) {
            byte[] raw;
            if (a == ChecksumAlgorithm.SHA256 && whole == null) {
                raw = Hex.decode(p.sha256());
            } else {
                StreamingChecksum digest = a.newDigest();
                feed(ctx, p, digest, whole);
                raw = digest.digest();
            }
            values.add(Base64.getEncoder().encodeToString(raw));
            if (ofParts != null) {
                ofParts.update(raw, 0, raw.length);
            }
        }
        String object = c.fullObject() ? whole.base64() : ofParts.base64() + "-" + parts.size();
        return new Result(values, object);
    }

    private static void feed(S3Context ctx, PartInfo p, StreamingChecksum digest, StreamingChecksum alsoWhole)
            throws IOException {
        ContentRead read = ctx.store().getContent(p.sha256());
        if (read == null) {
            throw new StoreException(StoreException.Reason.INVALID_PART, "part " + p.partNumber() + " content is gone");
        }
        try (InputStream in = read.openAll()) {
            byte[] buf = new byte[(int) Math.min(BUFFER, Math.max(1, p.size()))];
            int n;
            while ((n = in.read(buf)) > 0) {
                digest.update(buf, 0, n);
                if (alsoWhole != null) {
                    alsoWhole.update(buf, 0, n);
                }
            }
        }
    }
}
