package dev.cairn.service.s3;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.PutRequest;
import dev.cairn.store.VersionId;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreLimits;
import dev.cairn.store.StoredCopy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.w3c.dom.Element;

/** PutObject, CopyObject, DeleteObject and DeleteObjects. Thread-safe. */
final class ObjectWriteHandler {
    /** S3's limit on user metadata (names and values), in bytes. */
    static final int MAX_USER_METADATA_BYTES = 2048;

    private final S3Context ctx;

    ObjectWriteHandler(S3Context ctx) {
        this.ctx = ctx;
    }

    void putObject(S3Request r) throws IOException, S3Exception {
        checkKey(r.key());
        BucketAcl acl = objectAcl(ctx, r);
        UnsupportedHeaders.checkObjectWrite(r);
        WriteCondition condition = WriteCondition.of(r);
        ObjectAttributes attrs = attributesOf(r, ctx.store().limits()).withAcl(acl);
        Checksums checksums = Checksums.of(r);
        requireBucket(r.bucket());
        try (SpooledBody body = Bodies.read(ctx, r, ctx.maxObjectSize(), checksums.sinks())) {
            Map<String, String> verified = checksums.verify(body, r.auth.trailers());
            checkContentSha256(r, body);
            ObjectInfo info = write(r, attrs, body, body.md5(), verified, condition);
            r.setHeader("ETag", "\"" + info.etag() + "\"");
            if (info.versionId() != null) {
                r.setHeader("x-amz-version-id", info.versionId());
            }
            Checksums.echo(r, verified);
            r.sendEmpty(200);
        }
    }

    /** Reads of the copy source, when it keeps being overwritten while copied. */
    private static final int COPY_ATTEMPTS = 4;

    void copyObject(S3Request r) throws IOException, S3Exception {
        checkKey(r.key());
        BucketAcl acl = objectAcl(ctx, r);
        UnsupportedHeaders.checkObjectWrite(r);
        WriteCondition condition = WriteCondition.of(r);
        String[] source = copySource(r);
        String directive = r.header("x-amz-metadata-directive");
        boolean replace;
        if (directive == null || directive.equalsIgnoreCase("COPY")) {
            replace = false;
        } else if (directive.equalsIgnoreCase("REPLACE")) {
            replace = true;
        } else {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Unknown metadata directive.");
        }
        // Naming a storage class, even the object's own, makes a copy onto itself legal (rclone settier);
        // so does naming a version (copying an older version back makes it current).
        if (!replace && source[2] == null && r.header("x-amz-storage-class") == null && source[0].equals(r.bucket())
                && source[1].equals(r.key())) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "This copy request is illegal because it is trying to copy "
                    + "an object to itself without changing the object's metadata, storage class, website redirect "
                    + "location or encryption attributes.");
        }
        ObjectInfo info = null;
        String copiedVersion = null;
        // A source overwritten between reading its row and referencing its content may have had that
        // content reclaimed: the copy then takes the newer version, as a copy that started later would.
        for (int attempt = 1; info == null; attempt++) {
            ObjectInfo src = copySourceObject(ctx, source);
            Conditions.checkCopySource(r, src);
            // As S3: a copy gets the ACL its request names (private by default), never the source's.
            ObjectAttributes attrs = (replace ? attributesOf(r, ctx.store().limits()) : src.attributes()).withAcl(acl);
            try {
                ContentSource content = StoredCopy.content(ctx.store(), src);
                // A copy made in one request is one part: S3 gives it the MD5 of its bytes as ETag.
                info = write(r, attrs, content, ContentSource.md5Of(content), StoredCopy.fullObjectChecksums(src), condition);
                copiedVersion = src.versionId();
            } catch (StoreException e) {
                if (e.reason() != StoreException.Reason.CONTENT_GONE) {
                    throw e;
                }
                if (attempt == COPY_ATTEMPTS) {
                    throw new S3Exception(S3Error.SLOW_DOWN, "The copy source changed under every attempt; retry.");
                }
            }
        }
        if (copiedVersion != null) {
            r.setHeader("x-amz-copy-source-version-id", copiedVersion);
        }
        if (info.versionId() != null) {
            r.setHeader("x-amz-version-id", info.versionId());
        }
        r.sendXml(200, Xml.document("CopyObjectResult")
                .element("LastModified", HttpDates.iso(info.lastModified()))
                .element("ETag", "\"" + info.etag() + "\""));
    }

    void deleteObject(S3Request r) throws IOException, S3Exception {
        String versionId = ObjectReadHandler.versionIdParam(r);
        ObjectVersion done = ctx.store().deleteObjectVersion(r.bucket(), r.key(), versionId);
        if (done != null && done.deleteMarker()) {
            r.setHeader("x-amz-delete-marker", "true");
        }
        if (done != null && (versionId != null || done.deleteMarker())) {
            r.setHeader("x-amz-version-id", done.versionId());
        } else if (versionId != null) {
            r.setHeader("x-amz-version-id", versionId);
        }
        r.sendEmpty(204);
    }

    void deleteObjects(S3Request r) throws IOException, S3Exception {
        requireBucket(r.bucket());
        Element root = Xml.parse(Bodies.readXml(ctx, r));
        if (!Xml.localNameOf(root).equals("Delete")) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        boolean quiet = "true".equalsIgnoreCase(String.valueOf(Xml.childText(root, "Quiet")).trim());
        var objects = Xml.children(root, "Object");
        if (objects.isEmpty() || objects.size() > ctx.properties().getLimits().getMaxDeleteKeys()) {
            throw new S3Exception(S3Error.MALFORMED_XML);
        }
        Xml out = Xml.document("DeleteResult");
        for (Element o : objects) {
            String key = Xml.childText(o, "Key");
            String version = Xml.childText(o, "VersionId");
            if (key == null) {
                throw new S3Exception(S3Error.MALFORMED_XML);
            }
            if (version != null && !VersionId.isWellFormed(version)) {
                out.start("Error").element("Key", key).element("VersionId", version).element("Code", "NoSuchVersion")
                        .element("Message", S3Error.NO_SUCH_VERSION.message()).end();
                continue;
            }
            if (key.isEmpty() || key.getBytes(StandardCharsets.UTF_8).length > S3Request.MAX_KEY_BYTES) {
                out.start("Error").element("Key", key).element("Code", "InvalidArgument")
                        .element("Message", "invalid key").end();
                continue;
            }
            ObjectVersion done = ctx.store().deleteObjectVersion(r.bucket(), key, version);
            if (!quiet) {
                out.start("Deleted").element("Key", key);
                if (version != null) {
                    out.element("VersionId", version);
                }
                if (done != null && done.deleteMarker()) {
                    out.element("DeleteMarker", true).element("DeleteMarkerVersionId", done.versionId());
                }
                out.end();
            }
        }
        r.sendXml(200, out);
    }

    /**
     * The object a copy reads: the current one (NoSuchKey when absent or a delete marker), or the
     * version named (NoSuchVersion; a delete marker is InvalidRequest, as S3).
     */
    static ObjectInfo copySourceObject(S3Context ctx, String[] source) throws IOException, S3Exception {
        if (source[2] == null) {
            ObjectInfo src = ctx.store().headObject(source[0], source[1]);
            if (src == null) {
                throw new S3Exception(S3Error.NO_SUCH_KEY, "The specified copy source does not exist.");
            }
            return src;
        }
        ObjectVersion v = ctx.store().objectVersion(source[0], source[1], source[2]);
        if (v == null) {
            throw new S3Exception(S3Error.NO_SUCH_VERSION);
        }
        if (v.deleteMarker()) {
            throw new S3Exception(S3Error.INVALID_REQUEST,
                    "The source of a copy request may not specifically refer to a delete marker by version id.");
        }
        return v.info();
    }

    /** The source bucket, key and version id (null when none is named) of {@code x-amz-copy-source}. */
    static String[] copySource(S3Request r) throws S3Exception {
        String raw = r.header("x-amz-copy-source");
        if (raw == null || raw.isBlank()) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Copy Source must mention the source bucket and key");
        }
        String s = raw.trim();
        int q = s.indexOf('?');
        String versionId = null;
        if (q >= 0) {
            String query = s.substring(q + 1);
            if (!query.startsWith("versionId=")) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "Unsupported copy source parameter");
            }
            versionId = UrlCodec.decode(query.substring("versionId=".length()), false);
            if (!VersionId.isWellFormed(versionId)) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid version id specified");
            }
            s = s.substring(0, q);
        }
        s = UrlCodec.decode(s, false);
        if (s.startsWith("/")) {
            s = s.substring(1);
        }
        int slash = s.indexOf('/');
        if (slash <= 0 || slash == s.length() - 1) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Copy Source must mention the source bucket and key");
        }
        return new String[] {s.substring(0, slash), s.substring(slash + 1), versionId};
    }

    /** The object's attributes from the request's headers, within {@code limits}, those of the store it goes to. */
    static ObjectAttributes attributesOf(S3Request r, StoreLimits limits) throws S3Exception {
        Map<String, String> meta = new TreeMap<>();
        int metaBytes = 0;
        for (Map.Entry<String, List<String>> h : r.http.headers().entrySet()) {
            String lower = h.getKey();
            if (lower.startsWith("x-amz-meta-")) {
                if (lower.length() > limits.maxMetadataNameBytes()) {
                    throw new S3Exception(S3Error.METADATA_TOO_LARGE);
                }
                String value = String.join(",", h.getValue());
                String key = lower.substring("x-amz-meta-".length());
                meta.put(key, value);
                metaBytes += key.length() + value.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        if (metaBytes > MAX_USER_METADATA_BYTES) {
            throw new S3Exception(S3Error.METADATA_TOO_LARGE);
        }
        return new ObjectAttributes(r.header("Content-Type"), r.header("Cache-Control"),
                r.header("Content-Disposition"), storedEncoding(r.header("Content-Encoding")), r.header("Content-Language"),
                r.header("Expires"), meta);
    }

    /**
     * The Content-Encoding to keep: {@code aws-chunked} describes how this request's body was
     * framed, not the object, and S3 drops it (null when nothing else is left).
     */
    static String storedEncoding(String header) {
        if (header == null || !header.toLowerCase(java.util.Locale.ROOT).contains("aws-chunked")) {
            return header;
        }
        StringBuilder kept = new StringBuilder();
        for (String coding : header.split(",")) {
            String c = coding.trim();
            if (!c.isEmpty() && !c.equalsIgnoreCase("aws-chunked")) {
                kept.append(kept.length() == 0 ? "" : ",").append(c);
            }
        }
        return kept.length() == 0 ? null : kept.toString();
    }

    static void checkKey(String key) throws S3Exception {
        if (key.getBytes(StandardCharsets.UTF_8).length > S3Request.MAX_KEY_BYTES) {
            throw new S3Exception(S3Error.KEY_TOO_LONG);
        }
    }

    /** The ACL a new object gets: what {@code x-amz-acl} or {@code x-amz-grant-*} name, else private. */
    static BucketAcl objectAcl(S3Context ctx, S3Request r) throws S3Exception {
        return CannedAcls.of(r, ctx.ownerId(), true, BucketAcl.PRIVATE);
    }

    private ObjectInfo write(S3Request r, ObjectAttributes attrs, ContentSource content, String etag,
                             Map<String, String> checksums, WriteCondition condition) throws IOException, S3Exception {
        PutRequest put = PutRequest.of(r.bucket(), r.key(), content, etag).withAttributes(attrs)
                .withChecksums(checksums);
        return condition.run(ctx, r.bucket(), r.key(), c -> {
            if (c.etag() == null) {
                return ctx.store().putObject(put.withOnlyIfAbsent(c.onlyIfAbsent()));
            }
            try {
                return ctx.store().putObject(put.withIfMatch(c.etag()));
            } catch (UnsupportedOperationException e) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, "If-Match on writes is not supported by this store");
            }
        });
    }

    /** A signed payload's declared SHA-256 must be the body's. */
    static void checkContentSha256(S3Request r, SpooledBody body) throws S3Exception {
        String declared = r.header("x-amz-content-sha256");
        if (declared != null && dev.cairn.store.Hex.isSha256(declared) && !declared.equals(body.sha256())) {
            throw new S3Exception(S3Error.X_AMZ_CONTENT_SHA256_MISMATCH);
        }
    }

    private void requireBucket(String bucket) throws IOException {
        if (ctx.store().bucket(bucket) == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
    }
}
