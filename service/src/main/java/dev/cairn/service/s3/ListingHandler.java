package dev.cairn.service.s3;

import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.StoreException;
import dev.cairn.store.UploadInfo;
import dev.cairn.store.Utf8Order;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * ListObjectsV2, ListObjects, ListObjectVersions (versions and delete markers) and
 * ListMultipartUploads. One store page per response. Thread-safe.
 */
final class ListingHandler {
    static final int MAX_KEYS = 1000;
    private static final int UPLOAD_BATCH = 1000;

    private final S3Context ctx;
    private final BucketHandler buckets;

    ListingHandler(S3Context ctx, BucketHandler buckets) {
        this.ctx = ctx;
        this.buckets = buckets;
    }

    void listV2(S3Request r) throws IOException, S3Exception {
        boolean url = encodingType(r);
        String prefix = nonNull(r.param("prefix"));
        String delimiter = emptyToNull(r.param("delimiter"));
        int maxKeys = r.intParam("max-keys", MAX_KEYS, 0, MAX_KEYS);
        String token = r.param("continuation-token");
        String startAfter = r.param("start-after");
        String after = token != null ? decodeToken(token) : emptyToNull(startAfter);
        boolean fetchOwner = "true".equals(r.param("fetch-owner"));
        ListPage page = page(r, prefix, delimiter, after, maxKeys);

        Xml x = Xml.document("ListBucketResult");
        x.element("Name", r.bucket()).element("Prefix", enc(prefix, url));
        if (delimiter != null) {
            x.element("Delimiter", enc(delimiter, url));
        }
        x.element("MaxKeys", maxKeys).element("KeyCount", page.objects().size() + page.commonPrefixes().size());
        x.element("IsTruncated", page.truncated());
        if (token != null) {
            x.element("ContinuationToken", token);
        }
        if (page.truncated()) {
            x.element("NextContinuationToken", encodeToken(page.lastReturned()));
        }
        if (startAfter != null) {
            x.element("StartAfter", enc(startAfter, url));
        }
        if (url) {
            x.element("EncodingType", "url");
        }
        contents(x, page.objects(), url, fetchOwner);
        prefixes(x, page.commonPrefixes(), url);
        r.sendXml(200, x);
    }

    void listV1(S3Request r) throws IOException, S3Exception {
        boolean url = encodingType(r);
        String prefix = nonNull(r.param("prefix"));
        String delimiter = emptyToNull(r.param("delimiter"));
        String marker = r.param("marker");
        int maxKeys = r.intParam("max-keys", MAX_KEYS, 0, MAX_KEYS);
        ListPage page = page(r, prefix, delimiter, emptyToNull(marker), maxKeys);

        Xml x = Xml.document("ListBucketResult");
        x.element("Name", r.bucket()).element("Prefix", enc(prefix, url)).element("Marker", enc(nonNull(marker), url));
        if (page.truncated()) {
            x.element("NextMarker", enc(page.lastReturned(), url));
        }
        x.element("MaxKeys", maxKeys);
        if (delimiter != null) {
            x.element("Delimiter", enc(delimiter, url));
        }
        x.element("IsTruncated", page.truncated());
        if (url) {
            x.element("EncodingType", "url");
        }
        contents(x, page.objects(), url, true);
        prefixes(x, page.commonPrefixes(), url);
        r.sendXml(200, x);
    }

    void listVersions(S3Request r) throws IOException, S3Exception {
        boolean url = encodingType(r);
        String prefix = nonNull(r.param("prefix"));
        String delimiter = emptyToNull(r.param("delimiter"));
        String keyMarker = r.param("key-marker");
        String versionMarker = r.param("version-id-marker");
        int maxKeys = r.intParam("max-keys", MAX_KEYS, 0, MAX_KEYS);
        if (versionMarker != null && !versionMarker.isEmpty()) {
            if (keyMarker == null || keyMarker.isEmpty()) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT,
                        "A version-id marker cannot be specified without a key marker.");
            }
            if (!VersionId.isWellFormed(versionMarker)) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid version id specified");
            }
        }
        VersionPage page;
        if (maxKeys == 0) {
            if (ctx.store().bucket(r.bucket()) == null) {
                throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, r.bucket());
            }
            page = new VersionPage(List.of(), List.of(), false, null, null);
        } else {
            page = ctx.store().listObjectVersions(r.bucket(),
                    new VersionQuery(prefix, delimiter, keyMarker, versionMarker, maxKeys));
        }

        Xml x = Xml.document("ListVersionsResult");
        x.element("Name", r.bucket()).element("Prefix", enc(prefix, url))
                .element("KeyMarker", enc(nonNull(keyMarker), url)).element("VersionIdMarker", nonNull(versionMarker));
        if (page.truncated()) {
            x.element("NextKeyMarker", enc(page.nextKeyMarker(), url));
            if (page.nextVersionIdMarker() != null) {
                x.element("NextVersionIdMarker", page.nextVersionIdMarker());
            }
        }
        x.element("MaxKeys", maxKeys);
        if (delimiter != null) {
            x.element("Delimiter", enc(delimiter, url));
        }
        x.element("IsTruncated", page.truncated());
        if (url) {
            x.element("EncodingType", "url");
        }
        for (ObjectVersion v : page.versions()) {
            if (v.deleteMarker()) {
                x.start("DeleteMarker").element("Key", enc(v.key(), url)).element("VersionId", v.versionId())
                        .element("IsLatest", v.latest()).element("LastModified", HttpDates.iso(v.lastModified()));
                buckets.owner(x, "Owner");
                x.end();
                continue;
            }
            ObjectInfo o = v.info();
            x.start("Version").element("Key", enc(v.key(), url)).element("VersionId", v.versionId())
                    .element("IsLatest", v.latest()).element("LastModified", HttpDates.iso(o.lastModified()))
                    .element("ETag", "\"" + o.etag() + "\"").element("Size", o.size())
                    .element("StorageClass", "STANDARD");
            buckets.owner(x, "Owner");
            x.end();
        }
        prefixes(x, page.commonPrefixes(), url);
        r.sendXml(200, x);
    }

    void listUploads(S3Request r) throws IOException, S3Exception {
        boolean url = encodingType(r);
        String prefix = nonNull(r.param("prefix"));
        String delimiter = emptyToNull(r.param("delimiter"));
        String keyMarker = emptyToNull(r.param("key-marker"));
        String idMarker = keyMarker == null ? null : emptyToNull(r.param("upload-id-marker"));
        int max = r.intParam("max-uploads", MAX_KEYS, 0, MAX_KEYS);
        UploadPage page = uploadPage(r.bucket(), prefix, delimiter, keyMarker, idMarker, max);

        Xml x = Xml.document("ListMultipartUploadsResult");
        x.element("Bucket", r.bucket()).element("KeyMarker", enc(nonNull(keyMarker), url))
                .element("UploadIdMarker", nonNull(idMarker));
        if (page.truncated()) {
            x.element("NextKeyMarker", enc(nonNull(page.nextKeyMarker()), url))
                    .element("NextUploadIdMarker", nonNull(page.nextUploadIdMarker()));
        }
        x.element("Prefix", enc(prefix, url));
        if (delimiter != null) {
            x.element("Delimiter", enc(delimiter, url));
        }
        x.element("MaxUploads", max).element("IsTruncated", page.truncated());
        if (url) {
            x.element("EncodingType", "url");
        }
        for (UploadInfo u : page.uploads()) {
            x.start("Upload").element("Key", enc(u.key(), url)).element("UploadId", u.uploadId());
            buckets.owner(x, "Initiator");
            buckets.owner(x, "Owner");
            x.element("StorageClass", "STANDARD").element("Initiated", HttpDates.iso(u.initiatedMillis()));
            UploadChecksum checksum = UploadChecksum.ofUpload(u.attributes());
            if (checksum != null) {
                x.element("ChecksumAlgorithm", checksum.algorithm().s3Name()).element("ChecksumType", checksum.type());
            }
            x.end();
        }
        prefixes(x, page.commonPrefixes(), url);
        r.sendXml(200, x);
    }

    /** Uploads and rolled-up prefixes of one response; the next markers name its last entry. */
    private record UploadPage(List<UploadInfo> uploads, List<String> commonPrefixes, boolean truncated,
                              String nextKeyMarker, String nextUploadIdMarker) {
    }

    /**
     * One page of uploads after (key marker, upload id marker), with S3's delimiter roll-up: a
     * common prefix counts once towards {@code max} and is left out when not after the key
     * marker (the page before returned it). Uploads in progress are few, so the uploads under a
     * prefix are walked rather than sought past.
     */
    private UploadPage uploadPage(String bucket, String prefix, String delimiter, String keyMarker, String idMarker,
                                  int max) throws IOException {
        List<UploadInfo> uploads = new java.util.ArrayList<>();
        List<String> prefixes = new java.util.ArrayList<>();
        String nextKey = null;
        String nextId = null;
        String afterKey = keyMarker;
        String afterId = idMarker;
        while (true) {
            List<UploadInfo> batch = ctx.store().listUploads(bucket, prefix, afterKey, afterId, UPLOAD_BATCH);
            for (UploadInfo u : batch) {
                String common = delimiter == null ? null : commonPrefix(u.key(), prefix, delimiter);
                if (common != null && (common.equals(nextKey) && nextId == null
                        || keyMarker != null && Utf8Order.compare(common, keyMarker) <= 0)) {
                    continue;
                }
                if (uploads.size() + prefixes.size() == max) {
                    return new UploadPage(uploads, prefixes, true, nextKey, nextId);
                }
                if (common != null) {
                    prefixes.add(common);
                    nextKey = common;
                    nextId = null;
                } else {
                    uploads.add(u);
                    nextKey = u.key();
                    nextId = u.uploadId();
                }
            }
            if (batch.size() < UPLOAD_BATCH) {
                return new UploadPage(uploads, prefixes, false, nextKey, nextId);
            }
            UploadInfo last = batch.get(batch.size() - 1);
            afterKey = last.key();
            afterId = last.uploadId();
        }
    }

    private static String commonPrefix(String key, String prefix, String delimiter) {
        int at = key.indexOf(delimiter, prefix.length());
        return at < 0 ? null : key.substring(0, at + delimiter.length());
    }

    private ListPage page(S3Request r, String prefix, String delimiter, String after, int maxKeys) throws IOException {
        if (maxKeys == 0) {
            if (ctx.store().bucket(r.bucket()) == null) {
                throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, r.bucket());
            }
            return new ListPage(List.of(), List.of(), false, null);
        }
        return ctx.store().listObjects(r.bucket(), new ListQuery(prefix, delimiter, after, maxKeys));
    }

    private void contents(Xml x, List<ObjectInfo> objects, boolean url, boolean withOwner) {
        for (ObjectInfo o : objects) {
            x.start("Contents").element("Key", enc(o.key(), url))
                    .element("LastModified", HttpDates.iso(o.lastModified()))
                    .element("ETag", "\"" + o.etag() + "\"").element("Size", o.size())
                    .element("StorageClass", "STANDARD");
            if (withOwner) {
                buckets.owner(x, "Owner");
            }
            x.end();
        }
    }

    private static void prefixes(Xml x, List<String> prefixes, boolean url) {
        for (String p : prefixes) {
            x.start("CommonPrefixes").element("Prefix", enc(p, url)).end();
        }
    }

    private static boolean encodingType(S3Request r) throws S3Exception {
        String t = r.param("encoding-type");
        if (t == null || t.isEmpty()) {
            return false;
        }
        if (!t.equals("url")) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "Invalid Encoding Method specified in Request");
        }
        return true;
    }

    private static String enc(String s, boolean url) {
        return url ? UrlCodec.encodeKey(s) : s;
    }

    static String encodeToken(String lastReturned) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(lastReturned.getBytes(StandardCharsets.UTF_8));
    }

    static String decodeToken(String token) throws S3Exception {
        try {
            return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, "The continuation token provided is incorrect");
        }
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
