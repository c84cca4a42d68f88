package dev.cairn.backup.restore;

import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Writes a multipart object into S3 as it was uploaded: CreateMultipartUpload with the object's
 * headers, one UploadPart per recorded part size, streamed from the blob in one pass
 * ({@link PartStreams}, the blob's SHA-256 checked at its end, before the upload is completed),
 * then CompleteMultipartUpload. Same part sizes and bytes give the same part MD5s, so the ETag
 * ({@code md5-of-md5s-N}) and parts are the original's. Any failure, an interrupt included,
 * aborts the upload, so none is left behind. A destination that refuses the part sizes
 * (EntityTooSmall: parts under its minimum, which a Cairn configured with a smaller
 * {@code min-part-size} accepted) gets the object with one PUT instead, counted in
 * {@link #warnings}.
 */
final class MultipartUploads {
    private static final int WARNING_EXAMPLES = 5;

    private final S3Client s3;
    private final String description;
    private final AtomicLong refused = new AtomicLong();
    private final AtomicReference<List<String>> refusedExamples = new AtomicReference<>(List.of());
    private final AtomicLong otherEtag = new AtomicLong();
    private final AtomicReference<List<String>> otherEtagExamples = new AtomicReference<>(List.of());

    MultipartUploads(S3Client s3, String description) {
        this.s3 = s3;
        this.description = description;
    }

    /**
     * Writes the object in parts of {@code partSizes}; false, having written nothing, when the
     * destination refuses those sizes (the caller writes it with one PUT).
     */
    boolean put(PutObjectRequest headers, ObjectInfo row, long[] partSizes, ContentSource content) throws IOException {
        String bucket = headers.bucket();
        String key = headers.key();
        String uploadId;
        try {
            uploadId = s3.createMultipartUpload(create(headers)).uploadId();
        } catch (SdkException e) {
            throw fail("cannot start a multipart upload of " + bucket + "/" + key, e);
        }
        boolean completed = false;
        try (PartStreams streams = new PartStreams(content)) {
            List<CompletedPart> done = new ArrayList<>(partSizes.length);
            long offset = 0;
            for (int i = 0; i < partSizes.length; i++) {
                int number = i + 1;
                long size = partSizes[i];
                String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number)
                                .contentLength(size),
                        RequestBody.fromContentProvider(streams.part(offset, size), size, "application/octet-stream"))
                        .eTag();
                done.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
                offset += size;
            }
            String etag = s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(done))).eTag();
            completed = true;
            String want = row.etag();
            if (want != null && etag != null && !unquoted(etag).equals(unquoted(want))) {
                note(otherEtag, otherEtagExamples, bucket + "/" + key + " (" + unquoted(etag) + ", was " + unquoted(want) + ")");
            }
            return true;
        } catch (S3Exception e) {
            if (e.awsErrorDetails() != null && "EntityTooSmall".equals(e.awsErrorDetails().errorCode())) {
                note(refused, refusedExamples, bucket + "/" + key);
                return false;
            }
            throw fail("cannot write " + bucket + "/" + key + " in " + partSizes.length + " parts", e);
        } catch (SdkException | UncheckedIOException e) {
            throw fail("cannot write " + bucket + "/" + key + " in " + partSizes.length + " parts", e);
        } finally {
            if (!completed) {
                abort(bucket, key, uploadId);
            }
        }
    }

    private static CreateMultipartUploadRequest create(PutObjectRequest p) {
        CreateMultipartUploadRequest.Builder b = CreateMultipartUploadRequest.builder().bucket(p.bucket()).key(p.key())
                .metadata(p.metadata()).contentType(p.contentType()).cacheControl(p.cacheControl())
                .contentDisposition(p.contentDisposition()).contentEncoding(p.contentEncoding())
                .contentLanguage(p.contentLanguage()).expires(p.expires());
        if (p.acl() != null) {
            b.acl(p.aclAsString());
        }
        return b.build();
    }

    /** Aborts even when the thread was interrupted (the restore stopping): the flag is set again after. */
    private void abort(String bucket, String key, String uploadId) {
        boolean interrupted = Thread.interrupted();
        try {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
        } catch (SdkException e) {
            // The failure being thrown says what went wrong; a leftover upload is listed by ListMultipartUploads.
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void note(AtomicLong count, AtomicReference<List<String>> examples, String what) {
        count.incrementAndGet();
        examples.updateAndGet(l -> {
            if (l.size() >= WARNING_EXAMPLES) {
                return l;
            }
            List<String> more = new ArrayList<>(l);
            more.add(what);
            return List.copyOf(more);
        });
    }

    List<String> warnings() {
        List<String> out = new ArrayList<>();
        if (refused.get() > 0) {
            out.add(refused.get() + " multipart object(s) written with one PUT, so with a single-part ETag and no parts: "
                    + description + " refused their part sizes (EntityTooSmall; e.g. " + refusedExamples.get() + ")");
        }
        if (otherEtag.get() > 0) {
            out.add(otherEtag.get() + " multipart object(s) got an ETag other than the original's from " + description
                    + " (e.g. " + otherEtagExamples.get() + ")");
        }
        return out;
    }

    private static String unquoted(String etag) {
        return etag.replace("\"", "");
    }

    private IOException fail(String what, Exception e) {
        String detail = e instanceof S3Exception s3e
                ? "HTTP " + s3e.statusCode() + (s3e.awsErrorDetails() == null ? "" : " " + s3e.awsErrorDetails().errorCode())
                : e.getMessage();
        return new IOException(description + ": " + what + ": " + detail, e);
    }
}
