package dev.cairn.store;

import java.io.IOException;
import java.util.List;

/**
 * Where buckets, object rows, content and multipart state live. The S3 layer speaks only to
 * this interface; the embedded engine is the default implementation.
 *
 * <p>The contract is written so that a store partitioned by key without range scans across
 * partitions can implement it: every operation names its bucket; object rows are addressed by
 * (bucket, key); content is addressed by SHA-256 and stored once, with references counted per
 * (content, bucket); listing asks for one page at a time from a start point, so a backend may
 * answer it from a separate, ordered directory index.
 *
 * <p>Content is reference counted: a write increments the reference of its content before the
 * object row points at it, and an overwrite or delete decrements the replaced content's reference
 * after the row no longer points at it; content is reclaimed when no reference is left. A reader
 * never sees a mix of two writes, and a failed write leaves the previous object intact.
 *
 * <p>Thread-safety: implementations are safe for concurrent use. Writes to one key are
 * linearizable: the last acknowledged write wins.
 *
 * <p>Errors a caller can act on are {@link StoreException}s naming a {@link StoreException.Reason}.
 */
public interface ObjectStore extends AutoCloseable {

    /** Creates a bucket; BUCKET_EXISTS if it exists. */
    default BucketInfo createBucket(String bucket, BucketAcl acl) throws IOException {
        return createBucket(bucket, acl, System.currentTimeMillis());
    }

    /**
     * Creates a bucket recorded as created at {@code createdMillis} (epoch millis), not now: a
     * restore gives a bucket back its original creation date. BUCKET_EXISTS if it exists.
     */
    BucketInfo createBucket(String bucket, BucketAcl acl, long createdMillis) throws IOException;

    /** The bucket, or null when absent. */
    BucketInfo bucket(String bucket) throws IOException;

    /** Every bucket, by name. */
    List<BucketInfo> listBuckets() throws IOException;

    /** NO_SUCH_BUCKET if absent. */
    void setBucketAcl(String bucket, BucketAcl acl) throws IOException;

    /**
     * Sets or removes one configuration document of a bucket ({@link BucketDocument}; a null
     * text removes it, and removing one that is absent changes nothing); the bucket's other
     * settings and documents stay. Read back through {@link #bucket}'s
     * {@link BucketInfo#document}. NO_SUCH_BUCKET.
     *
     * @throws UnsupportedOperationException when the store keeps no bucket documents
     */
    default void setBucketDocument(BucketDocument document) throws IOException {
        throw new UnsupportedOperationException("bucket documents");
    }

    /**
     * Deletes an empty bucket, aborting its multipart uploads in progress; NO_SUCH_BUCKET,
     * BUCKET_NOT_EMPTY when it holds an object.
     */
    void deleteBucket(String bucket) throws IOException;

    /**
     * Writes an object; its condition ({@link PutRequest#onlyIfAbsent}, {@link PutRequest#ifMatch})
     * is checked and the row written atomically. NO_SUCH_BUCKET.
     *
     * @return the row written
     * @throws UnsupportedOperationException when the request has an {@code ifMatch} and the store
     *                                       cannot check and write atomically
     */
    ObjectInfo putObject(PutRequest request) throws IOException;

    /**
     * The sizes of the parts, in order, that this version of a multipart object ({@code info},
     * as read) was completed from; null when it is not multipart, was replaced since, or the
     * store does not record them.
     */
    default long[] partSizes(String bucket, String key, ObjectInfo info) throws IOException {
        return null;
    }

    /**
     * Sets an object's own canned ACL; NO_SUCH_KEY, NO_SUCH_BUCKET. This default writes the
     * object again with its own content (already stored, so no byte is copied), conditional on
     * its ETag where the store can check that atomically; a store that cannot overwrites
     * whatever is there after the read, and the object's last-modified time moves either way. A
     * store that can change the row in place overrides it.
     *
     * @return the row as written
     */
    default ObjectInfo setObjectAcl(String bucket, String key, BucketAcl acl) throws IOException {
        ObjectInfo o = headObject(bucket, key);
        if (o == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_KEY, key);
        }
        if (o.acl() == acl) {
            return o;
        }
        ContentSource stored = new ContentSource() {
            @Override
            public String sha256() {
                return o.sha256();
            }

            @Override
            public long size() {
                return o.size();
            }

            @Override
            public java.io.InputStream open() throws IOException {
                ContentRead read = getContent(o.sha256());
                if (read == null) {
                    throw new StoreException(StoreException.Reason.NO_SUCH_KEY, key);
                }
                return read.openAll();
            }
        };
        PutRequest again = PutRequest.of(bucket, key, stored, o.etag()).withAttributes(o.attributes().withAcl(acl))
                .withPartCount(o.partCount()).withChecksums(o.checksums());
        try {
            return putObject(again.withIfMatch(o.etag()));
        } catch (UnsupportedOperationException notAtomic) {
            return putObject(again);
        }
    }

    /**
     * Sets the canned ACL of one object version, current or not, as PutObjectAcl with a
     * {@code versionId} does: the version keeps its id, content and place. Returns it as changed;
     * null when the key has no object version of that id (a delete marker included).
     * NO_SUCH_BUCKET. This default serves the version {@code null} of a store without versions.
     *
     * @throws UnsupportedOperationException when the store cannot change a version that is not current
     */
    default ObjectInfo setObjectVersionAcl(String bucket, String key, String versionId, BucketAcl acl)
            throws IOException {
        ObjectVersion v = objectVersion(bucket, key, versionId);
        if (v == null || v.deleteMarker()) {
            return null;
        }
        if (!v.latest()) {
            throw new UnsupportedOperationException("the ACL of a version that is not current");
        }
        return setObjectAcl(bucket, key, acl);
    }

    /** The row, or null when absent; NO_SUCH_BUCKET if the bucket is absent. */
    ObjectInfo headObject(String bucket, String key) throws IOException;

    /** The object read consistently, or null when absent; NO_SUCH_BUCKET. Close it. */
    ObjectRead getObject(String bucket, String key) throws IOException;

    /**
     * The object as {@link #getObject} reads it when the store holds it in memory and can answer
     * without waiting on a disk, lock or network; null otherwise (absent, or not in memory). A
     * caller that must not wait serves a hit and hands a miss to a thread that may wait. This
     * default holds nothing in memory.
     */
    default ObjectRead getObjectIfInMemory(String bucket, String key) {
        return null;
    }

    /**
     * The version id {@link #headObject} and {@link #getObject} give a current row written without
     * one (while its bucket was unversioned or Suspended): {@link VersionId#NULL} once the bucket is
     * versioned, null before, as this store knows the bucket now. A cache in front of the store
     * keeps such rows unnamed and names them with this when it serves them, so a change of
     * versioning reaches cached rows as it reaches the store's own reads. This default reads the bucket.
     */
    default String nullVersionName(String bucket) throws IOException {
        BucketInfo b = bucket(bucket);
        return b != null && b.versioning() != Versioning.UNVERSIONED ? VersionId.NULL : null;
    }

    /**
     * Another node changed the bucket's settings (its versioning, its documents): a store that keeps a copy of
     * the bucket forgets it, so that its next look reads the bucket. This default keeps none.
     */
    default void forgetBucket(String bucket) {
    }

    /** Deletes the row; returns it, or null when there was none. NO_SUCH_BUCKET. */
    ObjectInfo deleteObject(String bucket, String key) throws IOException;

    /**
     * Sets a bucket's versioning (ENABLED or SUSPENDED; a bucket never goes back to UNVERSIONED);
     * NO_SUCH_BUCKET. Its state is {@link BucketInfo#versioning()}.
     *
     * @throws UnsupportedOperationException when the store keeps no versions
     */
    default void setBucketVersioning(String bucket, Versioning versioning) throws IOException {
        throw new UnsupportedOperationException("bucket versioning");
    }

    /**
     * One version of a key, current or not, delete markers included; null when the key has no
     * version of that id. NO_SUCH_BUCKET. {@code versionId} is {@link VersionId#NULL} or well formed.
     * This default serves stores without versions, whose only version is {@code null}.
     */
    default ObjectVersion objectVersion(String bucket, String key, String versionId) throws IOException {
        ObjectInfo o = headObject(bucket, key);
        return o != null && VersionId.NULL.equals(versionId) ? ObjectVersion.of(o, true) : null;
    }

    /**
     * The content of one object version, read consistently; null when there is no object version
     * of that id (a delete marker included). NO_SUCH_BUCKET. Close it.
     */
    default ObjectRead getObjectVersion(String bucket, String key, String versionId) throws IOException {
        if (!VersionId.NULL.equals(versionId)) {
            return null;
        }
        return getObject(bucket, key);
    }

    /**
     * The key's current delete marker: the newest version when it is one; null otherwise.
     * NO_SUCH_BUCKET.
     */
    default ObjectVersion currentDeleteMarker(String bucket, String key) throws IOException {
        return null;
    }

    /**
     * DeleteObject with versioning. {@code versionId} null: as the bucket's versioning says —
     * unversioned, the row goes; Enabled, a delete marker becomes the current version; Suspended, a
     * delete marker replaces the version {@code null}. Returns the marker made, or the version
     * removed; null when nothing was there to remove. With a {@code versionId}, that version goes
     * for good (its content's reference with it) and the next newest becomes current. NO_SUCH_BUCKET.
     */
    default ObjectVersion deleteObjectVersion(String bucket, String key, String versionId) throws IOException {
        if (versionId != null && !VersionId.NULL.equals(versionId)) {
            return null;
        }
        ObjectInfo removed = deleteObject(bucket, key);
        return removed == null ? null : ObjectVersion.of(removed, true);
    }

    /**
     * One page of a bucket's versions and delete markers. NO_SUCH_BUCKET. A store without versions
     * lists each current object as its version {@code null}, as {@code VersionListing.ofCurrentObjects} does.
     */
    VersionPage listObjectVersions(String bucket, VersionQuery query) throws IOException;

    /**
     * Writes one version of a key exactly as a backup recorded it — version id, place, time,
     * ETag, part count, checksums, attributes — where its place puts it among the key's versions:
     * newer than all of them, it becomes the current version (the current one kept as an older
     * version); older, it joins the older versions. A version of the same place is replaced, so
     * writing a record twice changes nothing; a {@code null} version replaces the key's other
     * {@code null} version. A record without place replaces the key's current row. {@code content}
     * is the object version's content (null for a delete marker); its reference is counted as a
     * write's. Not for serving writes: it takes the time and id from the record, not the clock.
     * NO_SUCH_BUCKET.
     *
     * @throws UnsupportedOperationException when the store cannot write a row as given
     */
    default void restoreVersion(String bucket, VersionRecord record, ContentSource content) throws IOException {
        throw new UnsupportedOperationException("restoring a row as recorded");
    }

    /**
     * Writes versions of one key as {@link #restoreVersion} writes each, in the given order; a
     * store may write them together (Cassandra: under one lease of the key). {@code contents}
     * holds each record's content (null for a delete marker), in the order of {@code records}.
     */
    default void restoreVersions(String bucket, List<VersionRecord> records, List<ContentSource> contents)
            throws IOException {
        for (int i = 0; i < records.size(); i++) {
            restoreVersion(bucket, records.get(i), contents.get(i));
        }
    }

    /** Whether {@link #restoreVersion} is supported. */
    default boolean restoresVersions() {
        return false;
    }

    /** One page of keys of a bucket. NO_SUCH_BUCKET. */
    ListPage listObjects(String bucket, ListQuery query) throws IOException;

    /** Content by SHA-256 (lower-case hex), or null when no object or part holds it. Close it. */
    ContentRead getContent(String sha256) throws IOException;

    /** Whether some object in a {@link BucketAcl#PUBLIC_READ} bucket holds this content. */
    boolean isContentPublic(String sha256) throws IOException;

    /** Starts a multipart upload; NO_SUCH_BUCKET. */
    UploadInfo createUpload(String bucket, String key, ObjectAttributes attributes) throws IOException;

    /** The upload, or NO_SUCH_UPLOAD (also when it belongs to another bucket or key). */
    UploadInfo upload(String bucket, String key, String uploadId) throws IOException;

    /** Stores a part, replacing any earlier part of that number; NO_SUCH_UPLOAD. */
    PartInfo putPart(String bucket, String key, String uploadId, int partNumber, ContentSource content) throws IOException;

    /** Parts with numbers greater than {@code afterPart}, in order, at most {@code maxParts}. */
    List<PartInfo> listParts(String bucket, String key, String uploadId, int afterPart, int maxParts) throws IOException;

    /**
     * Uploads in progress in a bucket whose key starts with {@code prefix}, ordered by (key,
     * upload id), after ({@code keyMarker}, {@code uploadIdMarker}); at most {@code max}.
     */
    List<UploadInfo> listUploads(String bucket, String prefix, String keyMarker, String uploadIdMarker, int max) throws IOException;

    /**
     * Assembles the named parts into the object and ends the upload. NO_SUCH_UPLOAD, INVALID_PART
     * (unknown part or ETag mismatch), INVALID_PART_ORDER, ENTITY_TOO_SMALL (a part other than
     * the last smaller than {@link CompleteRequest#minPartSize}). A condition is checked and the
     * object written atomically, as {@link #putObject}'s; the upload stays when it fails.
     *
     * @throws UnsupportedOperationException when the request has a condition, or attributes or
     *                                       checksums of its own, and the store cannot do that
     */
    ObjectInfo completeUpload(CompleteRequest request) throws IOException;

    /** Ends the upload and releases its parts; NO_SUCH_UPLOAD. */
    void abortUpload(String bucket, String key, String uploadId) throws IOException;

    StoreStats stats();

    /** What this store keeps at most, checked by its callers before they write. */
    default StoreLimits limits() {
        return StoreLimits.PORTABLE;
    }

    @Override
    void close() throws IOException;
}
