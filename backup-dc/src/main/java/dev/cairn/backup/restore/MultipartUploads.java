package dev.cairn.backup.restore;

import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CreateMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Writes a multipart object into S3 as it was uploaded: CreateMultipartUpload with the object's
 * headers (its intent recorded in the restore's {@link UploadJournal} before it is sent), one UploadPart
 * per recorded part size, then CompleteMultipartUpload. The blob is read once, in order
 * ({@link PartStreams}; its SHA-256 is checked at its last byte, before the upload is completed);
 * each part up to {@link #BUFFER_BYTES} is read into a buffer of its own and sent from it while
 * the next ones are read, up to {@link #PARTS_IN_FLIGHT} parts of one upload at once and
 * {@link #BUFFER_BYTES} of buffers for all uploads together (a larger part is streamed from the
 * blob). Sending the parts of an object one after the other made a multipart object cost several
 * request latencies more than one PUT. Same part sizes and bytes give the same part MD5s, so the
 * ETag ({@code md5-of-md5s-N}) and parts are the original's. Any failure, an interrupt included,
 * aborts the upload, so none is left behind. A destination that refuses the part sizes
 * (EntityTooSmall: parts under its minimum, which a Cairn configured with a smaller
 * {@code min-part-size} accepted) gets the object with one PUT instead, counted in
 * {@link #warnings}.
 */
final class MultipartUploads implements AutoCloseable {
    /** Parts of one upload sent at once. */
    static final int PARTS_IN_FLIGHT = 4;
    /** Bytes of part buffers held at once by all uploads of a destination. */
    static final int BUFFER_BYTES = 64 << 20;
    /** Threads sending buffered parts: with the uploads' own requests, within the client's connections. */
    static final int PART_THREADS = 16;
    private static final int WARNING_EXAMPLES = 5;
    /**
     * How far the destination's clock may lag the job's: a resumed restore aborts the uploads of
     * an intent's key initiated up to this long before the intent was recorded.
     */
    static final long CLOCK_SKEW_MILLIS = 5 * 60_000;
    /** Test-only: halt the job right after CreateMultipartUpload answers ({@link #haltForTest}). */
    static final String HALT_PROPERTY = "cairn.backup.test.halt-after-create-upload";

    private final S3Client s3;
    private final String description;
    private final Semaphore bufferKiB = new Semaphore(BUFFER_BYTES >> 10, true);
    private final ExecutorService partSenders = Executors.newFixedThreadPool(PART_THREADS, r -> {
        Thread t = new Thread(r, "restore-part");
        t.setDaemon(true);
        return t;
    });
    private volatile UploadJournal journal = UploadJournal.NONE;
    private final AtomicLong refused = new AtomicLong();
    private final AtomicReference<List<String>> refusedExamples = new AtomicReference<>(List.of());
    private final AtomicLong otherEtag = new AtomicLong();
    private final AtomicReference<List<String>> otherEtagExamples = new AtomicReference<>(List.of());

    MultipartUploads(S3Client s3, String description) {
        this.s3 = s3;
        this.description = description;
    }

    void recordUploads(UploadJournal journal) {
        this.journal = journal;
    }

    /**
     * Writes the object in parts of {@code partSizes}; false, having written nothing, when the
     * destination refuses those sizes (the caller writes it with one PUT).
     */
    boolean put(PutObjectRequest headers, ObjectInfo row, long[] partSizes, ContentSource content) throws IOException {
        String bucket = headers.bucket();
        String key = headers.key();
        if (Arrays.stream(partSizes).sum() != row.size()) {
            throw new IOException(bucket + "/" + key + ": its part sizes add up to " + Arrays.stream(partSizes).sum()
                    + " bytes, not its size " + row.size() + " (damaged manifest row)");
        }
        PendingUpload intent = journal.intent(bucket, key);
        journal.started(intent);
        String uploadId;
        try {
            uploadId = s3.createMultipartUpload(create(headers)).uploadId();
        } catch (SdkException e) {
            // The upload may exist all the same (an answer lost): the intent stays for a resumed restore.
            throw fail("cannot start a multipart upload of " + bucket + "/" + key, e);
        }
        haltForTest();
        PendingUpload pending = intent.withId(uploadId);
        journal.identified(intent, pending);
        boolean completed = false;
        List<Future<CompletedPart>> sent = new ArrayList<>(partSizes.length);
        AtomicBoolean stopped = new AtomicBoolean();
        try (PartStreams streams = new PartStreams(content)) {
            long offset = 0;
            for (int i = 0; i < partSizes.length; i++) {
                int number = i + 1;
                long size = partSizes[i];
                if (sent.size() >= PARTS_IN_FLIGHT) {
                    sent.get(sent.size() - PARTS_IN_FLIGHT).get();
                }
                if (size <= BUFFER_BYTES) {
                    int kib = (int) ((size + 1023) >> 10);
                    bufferKiB.acquire(kib);
                    byte[] buffer;
                    try (InputStream in = streams.part(offset, size).newStream()) {
                        buffer = in.readNBytes((int) size);
                    } catch (IOException | RuntimeException e) {
                        bufferKiB.release(kib);
                        throw e;
                    }
                    sent.add(partSenders.submit(() -> {
                        try {
                            if (stopped.get()) {
                                throw new CancellationException("the upload failed");
                            }
                            return uploadPart(bucket, key, uploadId, number, RequestBody.fromContentProvider(
                                    ContentStreamProvider.fromByteArrayUnsafe(buffer), size, "application/octet-stream"));
                        } finally {
                            bufferKiB.release(kib);
                        }
                    }));
                } else {
                    CompletedPart part = uploadPart(bucket, key, uploadId, number,
                            RequestBody.fromContentProvider(streams.part(offset, size), size, "application/octet-stream"));
                    sent.add(CompletableFuture.completedFuture(part));
                }
                offset += size;
            }
            List<CompletedPart> done = new ArrayList<>(partSizes.length);
            for (Future<CompletedPart> f : sent) {
                done.add(f.get());
            }
            String etag = s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId)
                    .multipartUpload(m -> m.parts(done))).eTag();
            completed = true;
            journal.ended(pending);
            String want = row.etag();
            if (want != null && etag != null && !unquoted(etag).equals(unquoted(want))) {
                note(otherEtag, otherEtagExamples, bucket + "/" + key + " (" + unquoted(etag) + ", was " + unquoted(want) + ")");
            }
            return true;
        } catch (ExecutionException e) {
            return failed(e.getCause(), bucket, key, partSizes.length);
        } catch (SdkException | UncheckedIOException e) {
            return failed(e, bucket, key, partSizes.length);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(description + ": writing " + bucket + "/" + key + " in " + partSizes.length
                    + " parts was interrupted", e);
        } finally {
            if (!completed) {
                stopped.set(true);
                settle(sent);
                if (abort(bucket, key, uploadId)) {
                    journal.ended(pending);
                }
            }
        }
    }

    /**
     * Waits for the parts under way, so that none reaches the upload after its abort; when the
     * restore is stopping (the thread interrupted), interrupts them instead and leaves the flag set.
     */
    private static void settle(List<Future<CompletedPart>> sent) {
        for (Future<CompletedPart> f : sent) {
            try {
                f.get();
            } catch (ExecutionException | CancellationException e) {
                // The failure being thrown is the upload's own.
            } catch (InterruptedException e) {
                sent.forEach(s -> s.cancel(true));
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private CompletedPart uploadPart(String bucket, String key, String uploadId, int number, RequestBody body) {
        long size = body.optionalContentLength().orElseThrow();
        String etag = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(uploadId).partNumber(number)
                .contentLength(size), body).eTag();
        return CompletedPart.builder().partNumber(number).eTag(etag).build();
    }

    /** False when the destination refused the part sizes; otherwise throws the failure. */
    private boolean failed(Throwable e, String bucket, String key, int parts) throws IOException {
        if (e instanceof S3Exception s3e && s3e.awsErrorDetails() != null
                && "EntityTooSmall".equals(s3e.awsErrorDetails().errorCode())) {
            note(refused, refusedExamples, bucket + "/" + key);
            return false;
        }
        if (e instanceof IOException io) {
            throw io;
        }
        throw fail("cannot write " + bucket + "/" + key + " in " + parts + " parts",
                e instanceof Exception x ? x : new RuntimeException(e));
    }

    /**
     * Aborts the uploads a killed restore recorded; one that is gone already (completed or
     * aborted) is skipped. An intent without id stands for an upload whose id may never have been
     * recorded: every upload of exactly its key that the destination lists as initiated at or
     * after the intent's time, less {@link #CLOCK_SKEW_MILLIS}, is aborted.
     */
    void abortLeftovers(List<PendingUpload> uploads) throws IOException {
        for (PendingUpload u : uploads) {
            if (u.isIntent()) {
                for (String id : startedSince(u)) {
                    abortLeftover(u.withId(id));
                }
            } else {
                abortLeftover(u);
            }
        }
    }

    private void abortLeftover(PendingUpload u) throws IOException {
        try {
            s3.abortMultipartUpload(b -> b.bucket(u.bucket()).key(u.key()).uploadId(u.uploadId()));
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw fail("cannot abort the multipart upload " + u.uploadId() + " of " + u.bucket() + "/" + u.key()
                        + " that an interrupted restore left", e);
            }
        } catch (SdkException e) {
            throw fail("cannot abort the multipart upload " + u.uploadId() + " of " + u.bucket() + "/" + u.key()
                    + " that an interrupted restore left", e);
        }
    }

    /** The ids of the uploads of exactly the intent's key initiated since its time (all of them when it has none). */
    private List<String> startedSince(PendingUpload intent) throws IOException {
        Instant since = intent.intendedAtMillis() == null ? Instant.MIN
                : Instant.ofEpochMilli(intent.intendedAtMillis() - CLOCK_SKEW_MILLIS);
        List<String> ids = new ArrayList<>();
        String keyMarker = null;
        String idMarker = null;
        try {
            while (true) {
                ListMultipartUploadsRequest.Builder req = ListMultipartUploadsRequest.builder().bucket(intent.bucket())
                        .prefix(intent.key());
                if (keyMarker != null) {
                    req.keyMarker(keyMarker).uploadIdMarker(idMarker);
                }
                ListMultipartUploadsResponse page = s3.listMultipartUploads(req.build());
                for (MultipartUpload u : page.uploads()) {
                    if (u.key().equals(intent.key()) && (u.initiated() == null || !u.initiated().isBefore(since))) {
                        ids.add(u.uploadId());
                    }
                }
                if (!Boolean.TRUE.equals(page.isTruncated()) || page.nextKeyMarker() == null) {
                    return ids;
                }
                keyMarker = page.nextKeyMarker();
                idMarker = page.nextUploadIdMarker();
            }
        } catch (SdkException e) {
            throw fail("cannot list the multipart uploads of " + intent.bucket() + "/" + intent.key()
                    + " that an interrupted restore may have started", e);
        }
    }

    /**
     * For the kill tests only: with system property {@value #HALT_PROPERTY} set, the job halts
     * (no cleanup, as {@code kill -9}) right after CreateMultipartUpload answers, before its id is
     * recorded anywhere.
     */
    private static void haltForTest() {
        if (Boolean.getBoolean(HALT_PROPERTY)) {
            Runtime.getRuntime().halt(137);
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
    private boolean abort(String bucket, String key, String uploadId) {
        boolean interrupted = Thread.interrupted();
        try {
            s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(uploadId));
            return true;
        } catch (SdkException e) {
            // The failure being thrown says what went wrong; the journal keeps the upload for a resumed restore to abort.
            return false;
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

    @Override
    public void close() {
        partSenders.shutdownNow();
    }

    private IOException fail(String what, Exception e) {
        String detail = e instanceof S3Exception s3e
                ? "HTTP " + s3e.statusCode() + (s3e.awsErrorDetails() == null ? "" : " " + s3e.awsErrorDetails().errorCode())
                : e.getMessage();
        return new IOException(description + ": " + what + ": " + detail, e);
    }
}
