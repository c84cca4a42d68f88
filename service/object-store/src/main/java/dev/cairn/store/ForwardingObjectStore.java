package dev.cairn.store;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * An {@link ObjectStore} that passes every call to another; decorators (caches) extend it and
 * override what they change. Every call that may replace or remove an object's row goes through
 * {@link #objectWrite}, so a cache overrides that one method and no write path escapes it.
 */
abstract class ForwardingObjectStore implements ObjectStore {
    protected final ObjectStore delegate;

    protected ForwardingObjectStore(ObjectStore delegate) {
        this.delegate = delegate;
    }

    /** A call to the delegate that may change the row of one object. */
    protected interface ObjectWrite {
        ObjectInfo apply() throws IOException;
    }

    /** Runs {@code write}, which may change the row of {@code bucket/key}. */
    protected ObjectInfo objectWrite(String bucket, String key, ObjectWrite write) throws IOException {
        return write.apply();
    }

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl) throws IOException {
        return delegate.createBucket(bucket, acl);
    }

    @Override
    public BucketInfo createBucket(String bucket, BucketAcl acl, long createdMillis) throws IOException {
        return delegate.createBucket(bucket, acl, createdMillis);
    }

    @Override
    public BucketInfo bucket(String bucket) throws IOException {
        return delegate.bucket(bucket);
    }

    @Override
    public List<BucketInfo> listBuckets() throws IOException {
        return delegate.listBuckets();
    }

    @Override
    public void setBucketAcl(String bucket, BucketAcl acl) throws IOException {
        delegate.setBucketAcl(bucket, acl);
    }

    @Override
    public void setBucketDocument(BucketDocument document) throws IOException {
        delegate.setBucketDocument(document);
    }

    @Override
    public void deleteBucket(String bucket) throws IOException {
        delegate.deleteBucket(bucket);
    }

    @Override
    public ObjectInfo putObject(PutRequest request) throws IOException {
        return objectWrite(request.bucket(), request.key(), () -> delegate.putObject(request));
    }

    @Override
    public ObjectInfo setObjectAcl(String bucket, String key, BucketAcl acl) throws IOException {
        return objectWrite(bucket, key, () -> delegate.setObjectAcl(bucket, key, acl));
    }

    @Override
    public ObjectInfo setObjectVersionAcl(String bucket, String key, String versionId, BucketAcl acl) throws IOException {
        return objectWrite(bucket, key, () -> delegate.setObjectVersionAcl(bucket, key, versionId, acl));
    }

    @Override
    public ObjectInfo headObject(String bucket, String key) throws IOException {
        return delegate.headObject(bucket, key);
    }

    @Override
    public ObjectRead getObject(String bucket, String key) throws IOException {
        return delegate.getObject(bucket, key);
    }

    /** A call to the delegate that may change the versions of one key. */
    protected interface VersionWrite {
        ObjectVersion apply() throws IOException;
    }

    /** Runs {@code write}, which may change the current row of {@code bucket/key}. */
    protected ObjectVersion versionWrite(String bucket, String key, VersionWrite write) throws IOException {
        ObjectVersion[] result = new ObjectVersion[1];
        objectWrite(bucket, key, () -> {
            result[0] = write.apply();
            return null;
        });
        return result[0];
    }

    @Override
    public void setBucketVersioning(String bucket, Versioning versioning) throws IOException {
        delegate.setBucketVersioning(bucket, versioning);
    }

    @Override
    public ObjectVersion objectVersion(String bucket, String key, String versionId) throws IOException {
        return delegate.objectVersion(bucket, key, versionId);
    }

    @Override
    public ObjectRead getObjectVersion(String bucket, String key, String versionId) throws IOException {
        return delegate.getObjectVersion(bucket, key, versionId);
    }

    @Override
    public void forgetBucket(String bucket) {
        delegate.forgetBucket(bucket);
    }

    @Override
    public String nullVersionName(String bucket) throws IOException {
        return delegate.nullVersionName(bucket);
    }

    @Override
    public ObjectVersion currentDeleteMarker(String bucket, String key) throws IOException {
        return delegate.currentDeleteMarker(bucket, key);
    }

    @Override
    public ObjectVersion deleteObjectVersion(String bucket, String key, String versionId) throws IOException {
        return versionWrite(bucket, key, () -> delegate.deleteObjectVersion(bucket, key, versionId));
    }

    @Override
    public boolean restoresVersions() {
        return delegate.restoresVersions();
    }

    @Override
    public void restoreVersion(String bucket, VersionRecord record, ContentSource content) throws IOException {
        versionWrite(bucket, record.version().key(), () -> {
            delegate.restoreVersion(bucket, record, content);
            return null;
        });
    }

    @Override
    public void restoreVersions(String bucket, List<VersionRecord> records, List<ContentSource> contents)
            throws IOException {
        if (records.isEmpty()) {
            return;
        }
        versionWrite(bucket, records.get(0).version().key(), () -> {
            delegate.restoreVersions(bucket, records, contents);
            return null;
        });
    }

    @Override
    public VersionPage listObjectVersions(String bucket, VersionQuery query) throws IOException {
        return delegate.listObjectVersions(bucket, query);
    }

    @Override
    public ObjectInfo deleteObject(String bucket, String key) throws IOException {
        return objectWrite(bucket, key, () -> delegate.deleteObject(bucket, key));
    }

    @Override
    public ListPage listObjects(String bucket, ListQuery query) throws IOException {
        return delegate.listObjects(bucket, query);
    }

    @Override
    public ContentRead getContent(String sha256) throws IOException {
        return delegate.getContent(sha256);
    }

    @Override
    public boolean isContentPublic(String sha256) throws IOException {
        return delegate.isContentPublic(sha256);
    }

    @Override
    public UploadInfo createUpload(String bucket, String key, ObjectAttributes attributes) throws IOException {
        return delegate.createUpload(bucket, key, attributes);
    }

    @Override
    public UploadInfo upload(String bucket, String key, String uploadId) throws IOException {
        return delegate.upload(bucket, key, uploadId);
    }

    @Override
    public PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource content)
            throws IOException {
        return delegate.putPart(bucket, key, uploadId, partNumber, content);
    }

    @Override
    public List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts)
            throws IOException {
        return delegate.listParts(bucket, key, uploadId, afterPart, maxParts);
    }

    @Override
    public List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker, int max)
            throws IOException {
        return delegate.listUploads(bucket, prefix, keyMarker, uploadIdMarker, max);
    }

    @Override
    public ObjectInfo completeUpload(CompleteRequest request) throws IOException {
        return objectWrite(request.bucket(), request.key(), () -> delegate.completeUpload(request));
    }

    @Override
    public long[] partSizes(String bucket, String key, ObjectInfo info) throws IOException {
        return delegate.partSizes(bucket, key, info);
    }

    @Override
    public void abortUpload(String bucket, String key, String uploadId) throws IOException {
        delegate.abortUpload(bucket, key, uploadId);
    }

    @Override
    public StoreLimits limits() {
        return delegate.limits();
    }

    @Override
    public StoreStats stats() {
        return delegate.stats();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
