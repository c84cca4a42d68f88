package dev.cairn.service.s3;

import dev.cairn.store.ObjectInfo;
import dev.cairn.store.StoreException;
import java.io.IOException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * GetObjectAttributes ({@code GET /bucket/key?attributes}): the attributes named in
 * {@code x-amz-object-attributes} (ETag, Checksum, ObjectParts, StorageClass, ObjectSize) from the
 * object's row, without its content. ObjectParts pages the part sizes the store recorded for a
 * multipart object ({@code x-amz-max-parts}, {@code x-amz-part-number-marker}); part checksums are
 * not kept, so parts carry their number and size only. Stateless; thread-safe.
 */
final class ObjectAttributesHandler {
    private static final Set<String> KNOWN = Set.of("etag", "checksum", "objectparts", "storageclass", "objectsize");
    private static final int MAX_PARTS = 1000;

    private final S3Context ctx;

    ObjectAttributesHandler(S3Context ctx) {
        this.ctx = ctx;
    }

    void getObjectAttributes(S3Request r) throws IOException, S3Exception {
        // The AWS SDK for Java sends one header per attribute, the CLI one list.
        java.util.List<String> named = r.http.headers().get("x-amz-object-attributes");
        Set<String> wanted = wanted(named == null ? null : String.join(",", named));
        if (ctx.store().bucket(r.bucket()) == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, r.bucket());
        }
        String versionId = ObjectReadHandler.versionIdParam(r);
        ObjectInfo o = versionId == null ? ctx.store().headObject(r.bucket(), r.key())
                : ObjectReadHandler.objectVersion(ctx, r, versionId);
        if (o == null) {
            throw new S3Exception(S3Error.NO_SUCH_KEY);
        }
        Xml x = Xml.document("GetObjectAttributesResponse");
        if (wanted.contains("etag")) {
            x.element("ETag", o.etag());
        }
        if (wanted.contains("checksum") && !o.checksums().isEmpty()) {
            x.start("Checksum");
            String type = null;
            for (Map.Entry<String, String> c : o.checksums().entrySet()) {
                x.element("Checksum" + c.getKey(), c.getValue());
                type = UploadChecksum.typeOf(c.getValue());
            }
            x.element("ChecksumType", type).end();
        }
        if (wanted.contains("objectparts") && o.partCount() > 0) {
            parts(r, x, o);
        }
        if (wanted.contains("storageclass")) {
            x.element("StorageClass", "STANDARD");
        }
        if (wanted.contains("objectsize")) {
            x.element("ObjectSize", o.size());
        }
        r.setHeader("Last-Modified", HttpDates.http(o.lastModified()));
        r.sendXml(200, x);
    }

    private void parts(S3Request r, Xml x, ObjectInfo o) throws IOException, S3Exception {
        int max = intHeader(r, "x-amz-max-parts", MAX_PARTS);
        int marker = intHeader(r, "x-amz-part-number-marker", 0);
        long[] sizes = ctx.store().partSizes(r.bucket(), r.key(), o);
        x.start("ObjectParts").element("PartsCount", o.partCount());
        if (sizes != null) {
            int last = (int) Math.min(sizes.length, (long) marker + Math.min(max, MAX_PARTS));
            x.element("PartNumberMarker", marker).element("NextPartNumberMarker", Math.max(marker, last))
                    .element("MaxParts", Math.min(max, MAX_PARTS)).element("IsTruncated", last < sizes.length);
            for (int n = marker + 1; n <= last; n++) {
                x.start("Part").element("PartNumber", n).element("Size", sizes[n - 1]).end();
            }
        }
        x.end();
    }

    private static Set<String> wanted(String header) throws S3Exception {
        if (header == null || header.isBlank()) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT,
                    "x-amz-object-attributes header specifying the attributes to be retrieved is either missing or empty");
        }
        Set<String> wanted = new HashSet<>();
        for (String a : header.split(",")) {
            String name = a.trim().toLowerCase(Locale.ROOT);
            if (!KNOWN.contains(name)) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid attribute name specified.");
            }
            wanted.add(name);
        }
        return wanted;
    }

    private static int intHeader(S3Request r, String name, int absent) throws S3Exception {
        String v = r.header(name);
        if (v == null) {
            return absent;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid " + name + ": " + v);
        }
    }
}
