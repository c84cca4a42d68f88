package dev.cairn.store;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * An object store held in memory, for fast tests and as the reference the other stores are
 * checked against. Content is held whole in memory, so it suits small test objects only.
 *
 * <p>Thread-safety: every method holds the store's monitor; content is read before taking it.
 */
public final class InMemoryObjectStore implements ObjectStore {

    private final Map<String, BucketInfo> buckets = new TreeMap<>();
    private final Map<String, NavigableMap<String, ObjectInfo>> objects = new HashMap<>();
    private final Map<String, byte[]> contents = new HashMap<>();
    /** sha256 → bucket → references. */
    private final Map<String, Map<String, Integer>> refs = new HashMap<>();
    private final Map<String, UploadInfo> uploads = new HashMap<>();
    private final Map<String, TreeMap<Integer, PartInfo>> parts = new HashMap<>();
    private final SecureRandom random = new SecureRandom();
    private long logicalBytes;
    private long physicalBytes;

    @Override
    public synchronized BucketInfo createBucket(String bucket, BucketAcl acl, long createdMillis) throws StoreException {
        if (buckets.containsKey(bucket)) {
            throw new StoreException(StoreException.Reason.BUCKET_EXISTS, bucket);
        }
        BucketInfo info = new BucketInfo(bucket, createdMillis, acl);
        buckets.put(bucket, info);
        objects.put(bucket, new TreeMap<>(Utf8Order.COMPARATOR));
        return info;
    }

    @Override
    public synchronized BucketInfo bucket(String bucket) {
        return buckets.get(bucket);
    }

    @Override
    public synchronized List<BucketInfo> listBuckets() {
        return List.copyOf(buckets.values());
    }

    @Override
    public synchronized void setBucketAcl(String bucket, BucketAcl acl) throws StoreException {
        BucketInfo b = requireBucket(bucket);
        buckets.put(bucket, b.withAcl(acl));
    }

    @Override
    public synchronized void setBucketDocument(BucketDocument document) throws StoreException {
        buckets.put(document.bucket(), requireBucket(document.bucket()).with(document));
    }

    @Override
    public synchronized void deleteBucket(String bucket) throws StoreException {
        requireBucket(bucket);
        if (!objects.get(bucket).isEmpty()) {
            throw new StoreException(StoreException.Reason.BUCKET_NOT_EMPTY, bucket);
        }
        for (UploadInfo u : List.copyOf(uploads.values())) {
            if (u.bucket().equals(bucket)) {
                dropUpload(u);
            }
        }
        buckets.remove(bucket);
        objects.remove(bucket);
    }

    @Override
    public ObjectInfo putObject(PutRequest request) throws IOException {
        String bucket = request.bucket();
        String key = request.key();
        ContentSource content = request.content();
        byte[] bytes = contentBytes(content);
        synchronized (this) {
            requireBucket(bucket);
            NavigableMap<String, ObjectInfo> rows = objects.get(bucket);
            WriteConditions.check(key, rows.get(key), request.onlyIfAbsent(), request.ifMatch());
            logicalBytes += bytes.length;
            if (!contents.containsKey(content.sha256())) {
                physicalBytes += bytes.length;
            }
            addRef(content.sha256(), bucket, bytes);
            ObjectInfo info = new ObjectInfo(key, content.sha256(), content.size(), request.etag(),
                    request.attributes(), System.currentTimeMillis(), request.partCount(), request.checksums());
            ObjectInfo old = rows.put(key, info);
            if (old != null) {
                releaseRef(old.sha256(), bucket);
            }
            return info;
        }
    }

    @Override
    public synchronized ObjectInfo headObject(String bucket, String key) throws StoreException {
        requireBucket(bucket);
        return objects.get(bucket).get(key);
    }

    @Override
    public synchronized ObjectRead getObject(String bucket, String key) throws StoreException {
        ObjectInfo info = headObject(bucket, key);
        if (info == null) {
            return null;
        }
        byte[] bytes = contents.get(info.sha256());
        return new ObjectRead() {
            @Override
            public ObjectInfo info() {
                return info;
            }

            @Override
            public InputStream open(long offset, long length) {
                return new ByteArrayInputStream(bytes, Math.toIntExact(offset), Math.toIntExact(length));
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public synchronized ObjectInfo deleteObject(String bucket, String key) throws StoreException {
        requireBucket(bucket);
        ObjectInfo old = objects.get(bucket).remove(key);
        if (old != null) {
            releaseRef(old.sha256(), bucket);
        }
        return old;
    }

    @Override
    public synchronized ListPage listObjects(String bucket, ListQuery query) throws IOException {
        requireBucket(bucket);
        NavigableMap<String, ObjectInfo> rows = objects.get(bucket);
        return Listing.page(query, (key, from) -> {
            NavigableMap<String, ObjectInfo> tail = rows.tailMap(key, from == Listing.From.AT);
            Iterator<ObjectInfo> it = tail.values().iterator();
            List<ObjectInfo> skipped = new ArrayList<>();
            if (from == Listing.From.PAST_PREFIX) {
                // Fine for a test store: walks the keys under the prefix.
                for (ObjectInfo o : tail.values()) {
                    if (!o.key().startsWith(key)) {
                        skipped.add(o);
                    }
                }
                it = skipped.iterator();
            }
            Iterator<ObjectInfo> source = it;
            return new Listing.Cursor() {
                @Override
                public boolean hasNext() {
                    return source.hasNext();
                }

                @Override
                public ObjectInfo next() {
                    return source.next();
                }

                @Override
                public void close() {
                }
            };
        });
    }

    @Override
    public synchronized ContentRead getContent(String sha256) {
        byte[] bytes = contents.get(sha256);
        if (bytes == null) {
            return null;
        }
        return new ContentRead() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public InputStream open(long offset, long length) {
                return new ByteArrayInputStream(bytes, Math.toIntExact(offset), Math.toIntExact(length));
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public synchronized boolean isContentPublic(String sha256) {
        Map<String, Integer> holders = refs.get(sha256);
        if (holders == null) {
            return false;
        }
        for (String bucket : holders.keySet()) {
            BucketInfo b = buckets.get(bucket);
            if (b != null && b.acl() == BucketAcl.PUBLIC_READ) {
                for (ObjectInfo o : objects.get(bucket).values()) {
                    if (o.sha256().equals(sha256)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    @Override
    public synchronized UploadInfo createUpload(String bucket, String key, ObjectAttributes attributes) throws StoreException {
        requireBucket(bucket);
        byte[] id = new byte[16];
        random.nextBytes(id);
        UploadInfo u = new UploadInfo(bucket, key, Hex.encode(id), attributes, System.currentTimeMillis());
        uploads.put(u.uploadId(), u);
        parts.put(u.uploadId(), new TreeMap<>());
        return u;
    }

    @Override
    public synchronized UploadInfo upload(String bucket, String key, String uploadId) throws StoreException {
        requireBucket(bucket);
        UploadInfo u = uploads.get(uploadId);
        if (u == null || !u.bucket().equals(bucket) || !u.key().equals(key)) {
            throw new StoreException(StoreException.Reason.NO_SUCH_UPLOAD, uploadId);
        }
        return u;
    }

    @Override
    public PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource content)
            throws IOException {
        byte[] bytes = contentBytes(content);
        String etag = Hex.encode(Digests.of("MD5").digest(bytes));
        synchronized (this) {
            upload(bucket, key, uploadId);
            addRef(content.sha256(), bucket, bytes);
            PartInfo p = new PartInfo(partNumber, content.sha256(), content.size(), etag, System.currentTimeMillis());
            PartInfo old = parts.get(uploadId).put(partNumber, p);
            if (old != null) {
                releaseRef(old.sha256(), bucket);
            }
            return p;
        }
    }

    @Override
    public synchronized List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws StoreException {
        upload(bucket, key, uploadId);
        return parts.get(uploadId).tailMap(afterPart, false).values().stream().limit(maxParts).toList();
    }

    @Override
    public synchronized List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker,
                                                     String uploadIdMarker, int max) throws StoreException {
        requireBucket(bucket);
        return uploads.values().stream()
                .filter(u -> u.bucket().equals(bucket) && u.key().startsWith(prefix == null ? "" : prefix))
                .filter(u -> keyMarker == null || isAfter(u, keyMarker, uploadIdMarker))
                .sorted((a, b) -> {
                    int c = Utf8Order.compare(a.key(), b.key());
                    return c != 0 ? c : a.uploadId().compareTo(b.uploadId());
                })
                .limit(max)
                .toList();
    }

    private static boolean isAfter(UploadInfo u, String keyMarker, String uploadIdMarker) {
        int c = Utf8Order.compare(u.key(), keyMarker);
        if (c != 0 || uploadIdMarker == null) {
            return c > 0;
        }
        return u.uploadId().compareTo(uploadIdMarker) > 0;
    }

    @Override
    public VersionPage listObjectVersions(String bucket, VersionQuery query) throws IOException {
        return VersionListing.ofCurrentObjects(this, bucket, query);
    }

    @Override
    public ObjectInfo completeUpload(CompleteRequest request) throws IOException {
        if (request.conditional()) {
            throw new UnsupportedOperationException("conditional completion");
        }
        if (request.rewritesAttributes()) {
            throw new UnsupportedOperationException("completion with attributes and checksums");
        }
        String bucket = request.bucket();
        String key = request.key();
        String uploadId = request.uploadId();
        List<CompletedPart> requested = request.parts();
        long minPartSize = request.minPartSize();
        List<PartInfo> chosen;
        UploadInfo u;
        synchronized (this) {
            u = upload(bucket, key, uploadId);
            chosen = MultipartAssembly.select(requested, parts.get(uploadId), minPartSize);
        }
        ContentSource whole = MultipartAssembly.concatenate(chosen, (sha, size) -> {
            synchronized (this) {
                return new ByteArrayInputStream(contents.get(sha));
            }
        });
        synchronized (this) {
            upload(bucket, key, uploadId);
            ObjectInfo info = putObject(PutRequest.of(bucket, key, whole, MultipartAssembly.etag(chosen))
                    .withAttributes(u.attributes()).withPartCount(chosen.size()));
            dropUpload(u);
            return info;
        }
    }

    @Override
    public synchronized void abortUpload(String bucket, String key, String uploadId) throws StoreException {
        dropUpload(upload(bucket, key, uploadId));
    }

    @Override
    public synchronized StoreStats stats() {
        return new StoreStats(logicalBytes, physicalBytes);
    }

    @Override
    public void close() {
    }

    private void dropUpload(UploadInfo u) {
        uploads.remove(u.uploadId());
        for (PartInfo p : parts.remove(u.uploadId()).values()) {
            releaseRef(p.sha256(), u.bucket());
        }
    }

    private BucketInfo requireBucket(String bucket) throws StoreException {
        BucketInfo b = buckets.get(bucket);
        if (b == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
        return b;
    }

    private byte[] contentBytes(ContentSource content) throws IOException {
        synchronized (this) {
            byte[] have = contents.get(content.sha256());
            if (have != null) {
                return have;
            }
        }
        try (InputStream in = content.open()) {
            byte[] bytes = in.readAllBytes();
            if (bytes.length != content.size()) {
                throw new IOException("content source yielded " + bytes.length + " bytes, expected " + content.size());
            }
            return bytes;
        }
    }

    private void addRef(String sha, String bucket, byte[] bytes) {
        contents.putIfAbsent(sha, bytes);
        refs.computeIfAbsent(sha, s -> new HashMap<>()).merge(bucket, 1, Integer::sum);
    }

    private void releaseRef(String sha, String bucket) {
        Map<String, Integer> holders = refs.get(sha);
        if (holders.merge(bucket, -1, Integer::sum) == 0) {
            holders.remove(bucket);
        }
        if (holders.isEmpty()) {
            refs.remove(sha);
            contents.remove(sha);
        }
    }
}
