package dev.cairn.service.s3;

import dev.cairn.store.ContentRead;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * GetObject and HeadObject, and content by hash ({@code GET /_cas/{sha256}}): conditionals,
 * single ranges, {@code response-*} overrides, streaming bodies. Thread-safe.
 */
final class ObjectReadHandler {
    static final String IMMUTABLE = "public, max-age=31536000, immutable";
    private static final int COPY_BUFFER = 64 * 1024;
    /** Answers longer than this, streamed from the store, take one of the streaming slots. */
    static final long STREAMED_BYTES = 1 << 20;

    private final S3Context ctx;
    /**
     * A slow reader holds its thread until its answer is written: without a cap, as many slow
     * readers of large objects as threads would leave none for anyone else.
     */
    private final java.util.concurrent.Semaphore streams;
    /**
     * Answers of 1 MiB or less are written detached, so that slow readers hold no thread, while
     * this budget lasts; past it they are written holding their thread, and threads, not memory,
     * wait for slow readers.
     */
    private final PendingAnswers pendingAnswers;

    /** Image variants; null: none, and variant parameters are ignored as any unknown parameter is. */
    private final VariantRoute variants;

    ObjectReadHandler(S3Context ctx, VariantRoute variants) {
        this.ctx = ctx;
        this.variants = variants;
        this.streams = new java.util.concurrent.Semaphore(ctx.properties().getLimits().getMaxStreamingReads());
        this.pendingAnswers = new PendingAnswers(ctx.properties().getLimits().getPendingAnswerBytes().toBytes());
    }

    PendingAnswers pendingAnswers() {
        return pendingAnswers;
    }

    /**
     * Whether the store holds the object of a plain GetObject or HeadObject in memory (a cache
     * hit, kept in {@link S3Request#inMemory} for {@link #getObject}); false for any other request.
     * Asked before authentication on a thread that must not wait, so that a miss goes to one that
     * may before any signature is checked.
     */
    boolean inMemory(S3Request r) {
        if ((r.operation != Operation.GET_OBJECT && r.operation != Operation.HEAD_OBJECT)
                || r.param("versionId") != null || r.param("partNumber") != null) {
            return false;
        }
        r.inMemory = ctx.store().getObjectIfInMemory(r.bucket(), r.key());
        if (r.inMemory != null && asksForVariant(r) && !variants.inMemory(r, r.inMemory.info().sha256())) {
            r.inMemory.close();
            r.inMemory = null;
        }
        return r.inMemory != null;
    }

    /** {@code publicOnly}: serve only a public-read object; anything else (absent too) is AccessDenied. */
    void getObject(S3Request r, boolean withBody, boolean publicOnly) throws IOException, S3Exception {
        String versionId = versionIdParam(r);
        String partNumber = r.param("partNumber");
        if (partNumber != null && r.header("Range") != null) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Cannot specify both Range header and partNumber query parameter");
        }
        try (ObjectRead read = r.inMemory != null ? r.inMemory
                : versionId == null ? ctx.store().getObject(r.bucket(), r.key())
                : readVersion(r, versionId, publicOnly)) {
            if (publicOnly && (read == null || read.info().acl() != dev.cairn.store.BucketAcl.PUBLIC_READ)) {
                throw new S3Exception(S3Error.ACCESS_DENIED);
            }
            if (read != null && asksForVariant(r)) {
                sendVariant(r, read.info().sha256(), read, withBody, false);
                return;
            }
            if (read == null) {
                ObjectVersion marker = ctx.store().currentDeleteMarker(r.bucket(), r.key());
                if (marker != null) {
                    r.setHeader("x-amz-delete-marker", "true");
                    r.setHeader("x-amz-version-id", marker.versionId());
                }
                throw new S3Exception(S3Error.NO_SUCH_KEY);
            }
            ObjectInfo info = read.info();
            if (info.versionId() != null) {
                r.setHeader("x-amz-version-id", info.versionId());
            }
            String etag = "\"" + info.etag() + "\"";
            try {
                Conditions.checkRead(r, info.etag(), info.lastModified());
            } catch (S3Exception e) {
                if (e.status() == 304) {
                    r.setHeader("ETag", etag);
                    r.setHeader("Last-Modified", HttpDates.http(info.lastModified()));
                }
                throw e;
            }
            ByteRange range;
            try {
                range = partNumber != null ? partRange(r, info, partNumber) : ByteRange.parse(r.header("Range"), info.size());
            } catch (S3Exception e) {
                r.setHeader("Content-Range", "bytes */" + info.size());
                throw e;
            }
            r.setHeader("ETag", etag);
            r.setHeader("Last-Modified", HttpDates.http(info.lastModified()));
            r.setHeader("Accept-Ranges", "bytes");
            writeAttributes(r, info.attributes());
            if (info.partCount() > 0) {
                r.setHeader("x-amz-mp-parts-count", Integer.toString(info.partCount()));
            }
            if (range == null && "ENABLED".equalsIgnoreCase(r.header("x-amz-checksum-mode"))) {
                for (Map.Entry<String, String> c : info.checksums().entrySet()) {
                    r.setHeader("x-amz-checksum-" + c.getKey().toLowerCase(java.util.Locale.ROOT), c.getValue());
                    r.setHeader("x-amz-checksum-type", UploadChecksum.typeOf(c.getValue()));
                }
            }
            applyOverrides(r);
            sendBody(r, read, info.size(), range, withBody);
        }
    }

    /**
     * The bytes of one part (GetObject {@code partNumber}): of a multipart object, the part it
     * was completed from; of any other object, part 1 is the whole object.
     */
    private ByteRange partRange(S3Request r, ObjectInfo info, String partNumber) throws IOException, S3Exception {
        int max = ctx.properties().getLimits().getMaxParts();
        int n;
        try {
            n = Integer.parseInt(partNumber);
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n < 1 || n > max) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Part number must be an integer between 1 and " + max
                    + ", inclusive");
        }
        if (info.partCount() == 0) {
            if (n != 1) {
                throw new S3Exception(S3Error.INVALID_PART_NUMBER);
            }
            return info.size() == 0 ? null : new ByteRange(0, info.size());
        }
        long[] sizes = ctx.store().partSizes(r.bucket(), r.key(), info);
        if (sizes == null) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "the parts of this object are not recorded");
        }
        if (n > sizes.length) {
            throw new S3Exception(S3Error.INVALID_PART_NUMBER);
        }
        long offset = 0;
        for (int i = 0; i < n - 1; i++) {
            offset += sizes[i];
        }
        return new ByteRange(offset, sizes[n - 1]);
    }

    /** {@code publicOnly}: serve only content a public-read bucket's object holds. */
    void getContent(S3Request r, boolean withBody, boolean publicOnly) throws IOException, S3Exception {
        String sha = r.key() == null ? "" : r.key().toLowerCase(java.util.Locale.ROOT);
        if (!dev.cairn.store.Hex.isSha256(sha)) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "the path must be /_cas/ and a hex SHA-256");
        }
        if (publicOnly && !ctx.store().isContentPublic(sha)) {
            throw new S3Exception(S3Error.ACCESS_DENIED);
        }
        try (ContentRead read = ctx.store().getContent(sha)) {
            if (read == null) {
                throw new S3Exception(S3Error.NO_SUCH_KEY);
            }
            if (asksForVariant(r)) {
                sendVariant(r, sha, read, withBody, true);
                return;
            }
            String etag = "\"" + sha + "\"";
            String inm = r.header("If-None-Match");
            if (inm != null && Conditions.matches(inm, sha)) {
                r.setHeader("ETag", etag);
                r.setHeader("Cache-Control", IMMUTABLE);
                throw new S3Exception(S3Error.NOT_MODIFIED);
            }
            ByteRange range;
            try {
                range = ByteRange.parse(r.header("Range"), read.size());
            } catch (S3Exception e) {
                r.setHeader("Content-Range", "bytes */" + read.size());
                throw e;
            }
            r.setHeader("ETag", etag);
            r.setHeader("Cache-Control", IMMUTABLE);
            r.setHeader("Accept-Ranges", "bytes");
            r.setHeader("x-amz-checksum-sha256", java.util.Base64.getEncoder()
                    .encodeToString(dev.cairn.store.Hex.decode(sha)));
            r.setHeader("Content-Type", "application/octet-stream");
            sendBody(r, read, read.size(), range, withBody);
        }
    }

    private boolean asksForVariant(S3Request r) {
        return variants != null && r.hasQuery() && variants.asksForVariant(r);
    }

    /** A variant of the source, whole (no ranges); {@code immutable}: addressed by content, cached forever. */
    private void sendVariant(S3Request r, String sha, ContentRead source, boolean withBody, boolean immutable)
            throws IOException, S3Exception {
        VariantRoute.Variant v = variants.variant(r, sha, source, r.http.mayBlock());
        if (v == null) {
            throw WouldBlock.INSTANCE;
        }
        if (v.varyAccept()) {
            // A bucket with CORS already varies by Origin; the variant adds Accept to that.
            r.setHeader("Vary", r.cors == null ? "Accept" : CorsHandler.VARY + ", Accept");
        }
        if (immutable) {
            r.setHeader("Cache-Control", IMMUTABLE);
        }
        String etag = "\"" + v.etag() + "\"";
        r.setHeader("ETag", etag);
        String inm = r.header("If-None-Match");
        if (inm != null && Conditions.matches(inm, v.etag())) {
            throw new S3Exception(S3Error.NOT_MODIFIED);
        }
        r.setHeader("Content-Type", v.contentType());
        byte[] bytes = v.bytes();
        sendBody(r, new ContentRead() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public InputStream open(long offset, long length) {
                return new java.io.ByteArrayInputStream(bytes, (int) offset, (int) length);
            }

            @Override
            public ByteBuffer inMemory(long offset, long length) {
                return ByteBuffer.wrap(bytes, (int) offset, (int) length).slice().asReadOnlyBuffer();
            }

            @Override
            public void close() {
            }
        }, bytes.length, null, withBody);
    }

    private void sendBody(S3Request r, ContentRead read, long size, ByteRange range, boolean withBody)
            throws IOException, S3Exception {
        long offset = 0;
        long length = size;
        if (range != null) {
            offset = range.first();
            length = range.length();
            r.http.setStatus(206);
            r.setHeader("Content-Range", range.contentRange(size));
        } else {
            r.http.setStatus(200);
        }
        r.http.setContentLength(length);
        if (!withBody || length == 0) {
            return;
        }
        ByteBuffer cached = read.inMemory(offset, length);
        if (cached != null) {
            // Answers from one cache entry share its bytes and its ObjectInfo, which stands for the
            // bytes: a read-only buffer does not show its array. A store that makes a new
            // ObjectInfo per read only counts shared bytes more than once.
            Object shared = read instanceof ObjectRead object ? object.info() : read;
            Runnable release = pendingAnswers.tryHold(shared, read.size());
            if (release == null) {
                writeBlocking(r, cached);
                r.bytesOut += length;
            } else {
                writeDetached(r, cached, release);
            }
            return;
        }
        Runnable release = length <= STREAMED_BYTES ? pendingAnswers.tryHold(new Object(), length) : null;
        if (release != null) {
            ByteBuffer body;
            try {
                body = ByteBuffer.wrap(readFully(read, offset, length));
            } catch (IOException | RuntimeException e) {
                release.run();
                throw e;
            }
            writeDetached(r, body, release);
            return;
        }
        boolean slotted = length > STREAMED_BYTES;
        if (slotted && !streams.tryAcquire()) {
            throw new S3Exception(S3Error.SLOW_DOWN, "Too many large objects are being read at once.");
        }
        try (InputStream in = read.open(offset, length)) {
            byte[] buf = new byte[(int) Math.min(COPY_BUFFER, length)];
            long left = length;
            while (left > 0) {
                int n = in.readNBytes(buf, 0, (int) Math.min(buf.length, left));
                if (n == 0) {
                    throw new IOException("content ended " + left + " bytes early");
                }
                left -= n;
                r.http.write(ByteBuffer.wrap(buf, 0, n), left == 0);
                r.bytesOut += n;
            }
        } finally {
            if (slotted) {
                streams.release();
            }
        }
    }

    /**
     * {@code release} runs once the body is written, or at once when the exchange writes blocking.
     * Counts the bytes the connection took: all of them, or fewer when the client left mid-body
     * (the request's bytes are recorded once the answer is complete, after this count).
     */
    private static void writeDetached(S3Request r, ByteBuffer body, Runnable release) throws IOException {
        long length = body.remaining();
        if (!r.http.writeLastDetached(body, taken -> {
            r.bytesOut += taken;
            release.run();
        })) {
            release.run();
            writeBlocking(r, body);
            r.bytesOut += length;
        }
    }

    private static byte[] readFully(ContentRead read, long offset, long length) throws IOException {
        try (InputStream in = read.open(offset, length)) {
            byte[] body = in.readNBytes((int) length);
            if (body.length != length) {
                throw new IOException("content ended " + (length - body.length) + " bytes early");
            }
            return body;
        }
    }

    /** No socket write of more than a copy buffer (see {@link SlicedWrite#SLICE}). */
    private static void writeBlocking(S3Request r, ByteBuffer body) throws IOException {
        while (body.remaining() > COPY_BUFFER) {
            ByteBuffer part = body.slice();
            part.limit(COPY_BUFFER);
            r.http.write(part, false);
            body.position(body.position() + COPY_BUFFER);
        }
        r.http.write(body, true);
    }

    static void writeAttributes(S3Request r, ObjectAttributes a) {
        r.setHeader("Content-Type", a.contentType() != null ? a.contentType() : "binary/octet-stream");
        r.setHeader("Cache-Control", a.cacheControl());
        r.setHeader("Content-Disposition", a.contentDisposition());
        r.setHeader("Content-Encoding", a.contentEncoding());
        r.setHeader("Content-Language", a.contentLanguage());
        r.setHeader("Expires", a.expires());
        for (Map.Entry<String, String> m : a.userMetadata().entrySet()) {
            r.setHeader("x-amz-meta-" + m.getKey(), m.getValue());
        }
    }

    private static void applyOverrides(S3Request r) {
        override(r, "response-content-type", "Content-Type");
        override(r, "response-content-language", "Content-Language");
        override(r, "response-expires", "Expires");
        override(r, "response-cache-control", "Cache-Control");
        override(r, "response-content-disposition", "Content-Disposition");
        override(r, "response-content-encoding", "Content-Encoding");
    }

    private static void override(S3Request r, String param, String header) {
        String v = r.param(param);
        if (v != null) {
            r.setHeader(header, v);
        }
    }

    /** The {@code versionId} parameter; null when absent; InvalidArgument when it is no version id. */
    static String versionIdParam(S3Request r) throws S3Exception {
        String v = r.param("versionId");
        if (v == null) {
            return null;
        }
        if (!VersionId.isWellFormed(v)) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid version id specified");
        }
        return v;
    }

    /**
     * An object version by id: NoSuchVersion when the key has none of that id, and for a delete
     * marker 405 MethodNotAllowed with {@code x-amz-delete-marker}, as S3.
     */
    static ObjectInfo objectVersion(S3Context ctx, S3Request r, String versionId) throws IOException, S3Exception {
        ObjectVersion v = ctx.store().objectVersion(r.bucket(), r.key(), versionId);
        if (v == null) {
            throw new S3Exception(S3Error.NO_SUCH_VERSION);
        }
        if (v.deleteMarker()) {
            throw deleteMarkerRead(r, v);
        }
        return v.info();
    }

    private static S3Exception deleteMarkerRead(S3Request r, ObjectVersion marker) {
        r.setHeader("x-amz-delete-marker", "true");
        r.setHeader("x-amz-version-id", marker.versionId());
        r.setHeader("Allow", "DELETE");
        return new S3Exception(S3Error.METHOD_NOT_ALLOWED);
    }

    /** One version's content; errors as {@link #objectVersion} (AccessDenied first for public-only reads). */
    private ObjectRead readVersion(S3Request r, String versionId, boolean publicOnly) throws IOException, S3Exception {
        ObjectRead read = ctx.store().getObjectVersion(r.bucket(), r.key(), versionId);
        if (read != null || publicOnly) {
            return read;
        }
        ObjectVersion v = ctx.store().objectVersion(r.bucket(), r.key(), versionId);
        if (v != null && v.deleteMarker()) {
            throw deleteMarkerRead(r, v);
        }
        throw new S3Exception(S3Error.NO_SUCH_VERSION);
    }
}
