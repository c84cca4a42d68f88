package dev.cairn.service.s3;

import dev.cairn.service.auth.ChecksumAlgorithm;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.ContentRead;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.PartInfo;
import dev.cairn.store.StoreException;
import dev.cairn.store.UploadInfo;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Multipart upload: Create, UploadPart, UploadPartCopy, Complete, Abort, ListParts. Parts are
 * content-addressed like objects; completion assembles them into one content. Thread-safe.
 */
final class MultipartHandler {
    private final S3Context ctx;
    private final BucketHandler buckets;

    MultipartHandler(S3Context ctx, BucketHandler buckets) {
        this.ctx = ctx;
        this.buckets = buckets;
    }

    void create(S3Request r) throws IOException, S3Exception {
        ObjectWriteHandler.checkKey(r.key());
        BucketAcl acl = ObjectWriteHandler.objectAcl(ctx, r);
        UnsupportedHeaders.checkObjectWrite(r);
        UploadChecksum checksum = UploadChecksum.ofCreate(r);
        ObjectAttributes attributes = UploadAcl.stamp(ObjectWriteHandler.attributesOf(r, ctx.store().limits()), acl);
        UploadInfo u = ctx.store().createUpload(r.bucket(), r.key(),
                checksum == null ? attributes : checksum.stamp(attributes));
        if (checksum != null) {
            r.setHeader("x-amz-checksum-algorithm", checksum.algorithm().s3Name());
            r.setHeader("x-amz-checksum-type", checksum.type());
        }
        r.sendXml(200, Xml.document("InitiateMultipartUploadResult")
                .element("Bucket", r.bucket()).element("Key", r.key()).element("UploadId", u.uploadId()));
    }

    void uploadPart(S3Request r) throws IOException, S3Exception {
        UnsupportedHeaders.checkPart(r);
        int partNumber = partNumber(r);
        String uploadId = r.param("uploadId");
        UploadInfo upload = ctx.store().upload(r.bucket(), r.key(), uploadId);
        Checksums checksums = Checksums.of(r);
        UploadChecksum expected = UploadChecksum.ofUpload(upload.attributes());
        ChecksumAlgorithm sent = checksums.algorithm();
        if (expected != null && sent != null && sent != expected.algorithm()) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "Checksum Type mismatch occurred, expected checksum Type: "
                    + expected.algorithm().s3Name().toLowerCase(Locale.ROOT) + ", actual checksum Type: "
                    + sent.s3Name().toLowerCase(Locale.ROOT));
        }
        try (SpooledBody body = Bodies.read(ctx, r, ctx.maxObjectSize(), checksums.sinks())) {
            Map<String, String> verified = checksums.verify(body, r.auth.trailers());
            ObjectWriteHandler.checkContentSha256(r, body);
            PartInfo p = ctx.store().putPart(r.bucket(), r.key(), uploadId, partNumber, body);
            r.setHeader("ETag", "\"" + p.etag() + "\"");
            Checksums.echo(r, verified);
            r.sendEmpty(200);
        }
    }

    void uploadPartCopy(S3Request r) throws IOException, S3Exception {
        UnsupportedHeaders.checkPart(r);
        int partNumber = partNumber(r);
        String uploadId = r.param("uploadId");
        ctx.store().upload(r.bucket(), r.key(), uploadId);
        String[] source = ObjectWriteHandler.copySource(r);
        ObjectInfo src = ObjectWriteHandler.copySourceObject(ctx, source);
        Conditions.checkCopySource(r, src);
        long first = 0;
        long length = src.size();
        String range = r.header("x-amz-copy-source-range");
        if (range != null) {
            ByteRange br = parseCopyRange(range, src.size());
            first = br.first();
            length = br.length();
        }
        ContentRead read = ctx.store().getContent(src.sha256());
        if (read == null) {
            throw new S3Exception(S3Error.NO_SUCH_KEY, "The specified copy source does not exist.");
        }
        try (read; InputStream in = read.open(first, length);
             SpooledBody body = SpooledBody.read(in, length, ctx.maxObjectSize(), ctx.spool(), List.of())) {
            PartInfo p = ctx.store().putPart(r.bucket(), r.key(), uploadId, partNumber, body);
            if (src.versionId() != null) {
                r.setHeader("x-amz-copy-source-version-id", src.versionId());
            }
            r.sendXml(200, Xml.document("CopyPartResult")
                    .element("LastModified", HttpDates.iso(p.lastModified()))
                    .element("ETag", "\"" + p.etag() + "\""));
        }
    }

    void complete(S3Request r) throws IOException, S3Exception {
        WriteCondition condition = WriteCondition.of(r);
        String uploadId = r.param("uploadId");
        UploadInfo upload;
        try {
            upload = ctx.store().upload(r.bucket(), r.key(), uploadId);
        } catch (StoreException e) {
            if (e.reason() == StoreException.Reason.NO_SUCH_UPLOAD) {
                CompletionRequest again = CompletionRequest.parse(Bodies.readCompletionXml(ctx, r));
                ObjectInfo done = ctx.store().headObject(r.bucket(), r.key());
                if (done != null && done.etag().equals(again.etag())) {
                    sendCompleted(r, done);
                    return;
                }
            }
            throw e;
        }
        CompletionRequest request = CompletionRequest.parse(Bodies.readCompletionXml(ctx, r));
        UploadChecksum checksum = UploadChecksum.ofUpload(upload.attributes());
        if (checksum == null) {
            checksum = request.impliedChecksum(r);
        } else {
            request.checkType(r, checksum);
        }
        Map<String, String> objectChecksums = Map.of();
        if (checksum != null) {
            List<PartInfo> chosen = chosenParts(r, uploadId, request.parts());
            if (chosen != null) {
                MultipartChecksums.Result computed = MultipartChecksums.compute(ctx, checksum, chosen);
                request.verify(r, checksum, computed);
                objectChecksums = Map.of(checksum.algorithm().s3Name(), computed.object());
            }
        }
        long minPartSize = ctx.properties().getLimits().getMinPartSize().toBytes();
        CompleteRequest plain = CompleteRequest.of(r.bucket(), r.key(), uploadId, request.parts(), minPartSize);
        CompleteRequest completion = checksum == null && !UploadAcl.isStamped(upload.attributes()) ? plain
                : plain.withAttributes(UploadAcl.strip(UploadChecksum.strip(upload.attributes())))
                        .withChecksums(objectChecksums);
        ObjectInfo info = condition.run(ctx, r.bucket(), r.key(), c -> {
            try {
                return ctx.store().completeUpload(completion.withOnlyIfAbsent(c.onlyIfAbsent()).withIfMatch(c.etag()));
            } catch (UnsupportedOperationException e) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, "conditional writes are not supported by this store");
            }
        });
        sendCompleted(r, info);
    }

    private void sendCompleted(S3Request r, ObjectInfo info) throws IOException {
        Xml x = Xml.document("CompleteMultipartUploadResult")
                .element("Location", "/" + r.bucket() + "/" + r.key())
                .element("Bucket", r.bucket()).element("Key", r.key())
                .element("ETag", "\"" + info.etag() + "\"");
        String type = null;
        for (Map.Entry<String, String> c : info.checksums().entrySet()) {
            x.element("Checksum" + c.getKey(), c.getValue());
            type = UploadChecksum.typeOf(c.getValue());
        }
        if (type != null) {
            x.element("ChecksumType", type);
        }
        if (info.versionId() != null) {
            r.setHeader("x-amz-version-id", info.versionId());
        }
        r.sendXml(200, x);
    }

    /** The stored parts a completion names, in its order; null when one is missing (the store answers). */
    private List<PartInfo> chosenParts(S3Request r, String uploadId, List<CompletedPart> named) throws IOException {
        Map<Integer, PartInfo> stored = new HashMap<>();
        for (PartInfo p : ctx.store().listParts(r.bucket(), r.key(), uploadId, 0, Integer.MAX_VALUE)) {
            stored.put(p.partNumber(), p);
        }
        List<PartInfo> chosen = new ArrayList<>(named.size());
        for (CompletedPart c : named) {
            PartInfo p = stored.get(c.partNumber());
            if (p == null || !p.etag().equals(Conditions.unquote(c.etag().trim()))) {
                return null;
            }
            chosen.add(p);
        }
        return chosen;
    }

    void abort(S3Request r) throws IOException {
        ctx.store().abortUpload(r.bucket(), r.key(), r.param("uploadId"));
        r.sendEmpty(204);
    }

    void listParts(S3Request r) throws IOException, S3Exception {
        String uploadId = r.param("uploadId");
        int marker = r.intParam("part-number-marker", 0, 0, Integer.MAX_VALUE);
        int max = r.intParam("max-parts", 1000, 0, 1000);
        UploadInfo upload = ctx.store().upload(r.bucket(), r.key(), uploadId);
        UploadChecksum checksum = UploadChecksum.ofUpload(upload.attributes());
        List<PartInfo> found = ctx.store().listParts(r.bucket(), r.key(), uploadId, marker, max + 1);
        boolean truncated = found.size() > max;
        List<PartInfo> shown = truncated ? found.subList(0, max) : found;
        Xml x = Xml.document("ListPartsResult");
        x.element("Bucket", r.bucket()).element("Key", r.key()).element("UploadId", uploadId);
        buckets.owner(x, "Initiator");
        buckets.owner(x, "Owner");
        x.element("StorageClass", "STANDARD");
        if (checksum != null) {
            x.element("ChecksumAlgorithm", checksum.algorithm().s3Name()).element("ChecksumType", checksum.type());
        }
        x.element("PartNumberMarker", marker);
        if (!shown.isEmpty()) {
            x.element("NextPartNumberMarker", shown.get(shown.size() - 1).partNumber());
        }
        x.element("MaxParts", max).element("IsTruncated", truncated);
        for (PartInfo p : shown) {
            x.start("Part").element("PartNumber", p.partNumber())
                    .element("LastModified", HttpDates.iso(p.lastModified()))
                    .element("ETag", "\"" + p.etag() + "\"").element("Size", p.size());
            if (checksum != null) {
                x.element("Checksum" + checksum.algorithm().s3Name(),
                        MultipartChecksums.ofPart(ctx, checksum.algorithm(), p));
            }
            x.end();
        }
        r.sendXml(200, x);
    }

    private int partNumber(S3Request r) throws S3Exception {
        int max = ctx.properties().getLimits().getMaxParts();
        String v = r.param("partNumber");
        try {
            int n = Integer.parseInt(v);
            if (n >= 1 && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "Part number must be an integer between 1 and " + max
                + ", inclusive");
    }

    private static ByteRange parseCopyRange(String header, long size) throws S3Exception {
        String h = header.trim();
        if (h.startsWith("bytes=")) {
            String[] ab = h.substring(6).split("-", 2);
            try {
                long a = Long.parseLong(ab[0].trim());
                long b = Long.parseLong(ab[1].trim());
                if (a >= 0 && b >= a) {
                    if (b >= size) {
                        throw new S3Exception(S3Error.INVALID_RANGE, "The requested range is not satisfiable");
                    }
                    return new ByteRange(a, b - a + 1);
                }
            } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
                // answered below
            }
        }
        throw new S3Exception(S3Error.INVALID_ARGUMENT, "The x-amz-copy-source-range value must be of the form "
                + "bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy");
    }

}
