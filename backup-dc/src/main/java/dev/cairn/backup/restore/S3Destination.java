package dev.cairn.backup.restore;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Restores into an S3 endpoint, each bucket under its own name. Attributes and user metadata are
 * sent as headers; the server sets the time and computes the ETag. Each PUT carries the content's
 * SHA-256. An object backed up with its part sizes is written by a multipart upload of parts of
 * those sizes ({@link MultipartUploads}), so its ETag and parts are the original's.
 *
 * <p>S3 lets no client choose a version's id or time, so a bucket with versioning is restored
 * only when asked to replay its versions ({@code --replay-versions}): versioning is enabled on
 * the destination bucket, and each key's versions are written oldest first — a PUT for an object
 * version, a DELETE for a delete marker — so the destination holds them in the same order with
 * the same content and metadata, under new ids and times.
 */
public final class S3Destination implements RestoreDestination {
    private final S3Client s3;
    private final String description;
    private final boolean replayVersions;
    private final MultipartUploads multipart;

    /** @param replayVersions restore buckets with versioning by replaying their versions */
    public S3Destination(S3Client s3, String description, boolean replayVersions) {
        this.s3 = s3;
        this.description = description;
        this.replayVersions = replayVersions;
        this.multipart = new MultipartUploads(s3, description);
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public boolean bucketHasObjects(String bucket) throws IOException {
        try {
            if (replayVersions) {
                ListObjectVersionsResponse r = s3.listObjectVersions(b -> b.bucket(bucket).maxKeys(1));
                return !r.versions().isEmpty() || !r.deleteMarkers().isEmpty();
            }
            return !s3.listObjectsV2(b -> b.bucket(bucket).maxKeys(1)).contents().isEmpty();
        } catch (NoSuchBucketException e) {
            return false;
        } catch (SdkException e) {
            throw fail("cannot list bucket " + bucket, e);
        }
    }

    @Override
    public void ensureBucket(BucketInfo bucket) throws IOException {
        createIfAbsent(bucket);
        String cors = bucket.document(dev.cairn.store.BucketDocument.CORS);
        if (cors != null) {
            List<software.amazon.awssdk.services.s3.model.CORSRule> rules = CorsDocuments.rules(cors);
            try {
                s3.putBucketCors(b -> b.bucket(bucket.name()).corsConfiguration(c -> c.corsRules(rules)));
            } catch (SdkException e) {
                throw fail("cannot set the CORS configuration of bucket " + bucket.name(), e);
            }
        }
        if (replayVersions && bucket.versioning() != Versioning.UNVERSIONED) {
            try {
                s3.putBucketVersioning(b -> b.bucket(bucket.name())
                        .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
            } catch (SdkException e) {
                throw fail("cannot enable versioning of bucket " + bucket.name(), e);
            }
        }
    }

    private void createIfAbsent(BucketInfo bucket) throws IOException {
        try {
            s3.headBucket(b -> b.bucket(bucket.name()));
            return;
        } catch (S3Exception e) {
            if (e.statusCode() != 404) {
                throw fail("cannot reach bucket " + bucket.name(), e);
            }
        } catch (SdkException e) {
            throw fail("cannot reach bucket " + bucket.name(), e);
        }
        try {
            s3.createBucket(b -> b.bucket(bucket.name())
                    .acl(bucket.acl() == BucketAcl.PUBLIC_READ ? BucketCannedACL.PUBLIC_READ : BucketCannedACL.PRIVATE));
        } catch (SdkException e) {
            throw fail("cannot create bucket " + bucket.name(), e);
        }
    }

    /** Only by replaying them: S3 lets no client choose a version's id or time. */
    @Override
    public boolean restoresVersions() {
        return replayVersions;
    }

    @Override
    public boolean replaysVersions() {
        return replayVersions;
    }

    @Override
    public void put(BackupRow backupRow, ContentSource content) throws IOException {
        if (backupRow.isVersion()) {
            throw new IOException(description + " restores object versions only by replaying them, oldest first ("
                    + backupRow.bucket() + "/" + backupRow.key() + ")");
        }
        putObject(backupRow, content);
    }

    @Override
    public void replay(List<BackupRow> newestFirst, List<ContentSource> contents, boolean clearFirst)
            throws IOException {
        if (!replayVersions) {
            throw new UnsupportedOperationException(description + " replays no versions (--replay-versions)");
        }
        BackupRow first = newestFirst.get(0);
        if (clearFirst) {
            clearKey(first.bucket(), first.key());
        }
        write(newestFirst, contents);
    }

    /** Writes versions of one key oldest first: a PUT for an object version, a DELETE for a delete marker. */
    private void write(List<BackupRow> newestFirst, List<ContentSource> contents) throws IOException {
        if (newestFirst.isEmpty()) {
            return;
        }
        BackupRow first = newestFirst.get(0);
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            BackupRow row = newestFirst.get(i);
            if (!row.bucket().equals(first.bucket()) || !row.key().equals(first.key()) || !row.isVersion()) {
                throw new IllegalArgumentException("a replay takes the versions of one key, got " + row.bucket() + "/"
                        + row.key() + " with " + first.bucket() + "/" + first.key());
            }
            if (row.hasContent()) {
                putObject(row, contents.get(i));
            } else {
                try {
                    s3.deleteObject(b -> b.bucket(row.bucket()).key(row.key()));
                } catch (SdkException e) {
                    throw fail("cannot write a delete marker of " + row.bucket() + "/" + row.key(), e);
                }
            }
        }
    }

    @Override
    public void replayOnTop(List<BackupRow> newestFirst, List<ContentSource> contents, int below, boolean resume)
            throws IOException {
        BackupRow first = newestFirst.get(0);
        int written = resume ? Math.max(0, Math.min(newestFirst.size(), versionCount(first.bucket(), first.key()) - below)) : 0;
        write(newestFirst.subList(0, newestFirst.size() - written), contents.subList(0, newestFirst.size() - written));
    }

    @Override
    public void setVersioning(String bucket, Versioning versioning) throws IOException {
        BucketVersioningStatus status = versioning == Versioning.SUSPENDED ? BucketVersioningStatus.SUSPENDED
                : BucketVersioningStatus.ENABLED;
        try {
            s3.putBucketVersioning(b -> b.bucket(bucket).versioningConfiguration(c -> c.status(status)));
        } catch (SdkException e) {
            throw fail("cannot set the versioning of bucket " + bucket + " to " + status, e);
        }
    }

    /** The versions and delete markers of exactly this key. */
    @Override
    public int versionCount(String bucket, String key) throws IOException {
        int n = 0;
        try {
            for (ListObjectVersionsResponse page : s3.listObjectVersionsPaginator(b -> b.bucket(bucket).prefix(key))) {
                n += (int) page.versions().stream().filter(v -> v.key().equals(key)).count();
                n += (int) page.deleteMarkers().stream().filter(m -> m.key().equals(key)).count();
            }
        } catch (SdkException e) {
            throw fail("cannot list the versions of " + bucket + "/" + key, e);
        }
        return n;
    }

    /** Deletes every version and delete marker of exactly this key. */
    private void clearKey(String bucket, String key) throws IOException {
        try {
            for (ListObjectVersionsResponse page : s3.listObjectVersionsPaginator(b -> b.bucket(bucket).prefix(key))) {
                for (ObjectVersion v : page.versions()) {
                    if (v.key().equals(key)) {
                        s3.deleteObject(b -> b.bucket(bucket).key(key).versionId(v.versionId()));
                    }
                }
                for (DeleteMarkerEntry m : page.deleteMarkers()) {
                    if (m.key().equals(key)) {
                        s3.deleteObject(b -> b.bucket(bucket).key(key).versionId(m.versionId()));
                    }
                }
            }
        } catch (SdkException e) {
            throw fail("cannot remove the versions an interrupted replay wrote of " + bucket + "/" + key, e);
        }
    }

    private void putObject(BackupRow backupRow, ContentSource content) throws IOException {
        String bucket = backupRow.bucket();
        ObjectInfo row = backupRow.info();
        PutObjectRequest req = putRequest(bucket, row);
        long[] parts = backupRow.partSizes();
        if (parts != null && parts.length > 0 && multipart.put(req, row, parts, content)) {
            return;
        }
        try {
            s3.putObject(req, RequestBody.fromContentProvider(() -> {
                try {
                    return content.open();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, row.size(), req.contentType() == null ? "application/octet-stream" : req.contentType()));
        } catch (SdkException | java.io.UncheckedIOException e) {
            throw fail("cannot write " + bucket + "/" + row.key(), e);
        }
    }

    /** A PUT of the row with its attributes and user metadata as headers, and its SHA-256. */
    private static PutObjectRequest putRequest(String bucket, ObjectInfo row) {
        ObjectAttributes a = row.attributes();
        PutObjectRequest.Builder req = PutObjectRequest.builder().bucket(bucket).key(row.key())
                .contentLength(row.size())
                .checksumSHA256(Base64.getEncoder().encodeToString(Hex.decode(row.sha256())))
                .metadata(a.userMetadata());
        if (a.acl() == BucketAcl.PUBLIC_READ) {
            req.acl(ObjectCannedACL.PUBLIC_READ);
        }
        if (a.contentType() != null) {
            req.contentType(a.contentType());
        }
        if (a.cacheControl() != null) {
            req.cacheControl(a.cacheControl());
        }
        if (a.contentDisposition() != null) {
            req.contentDisposition(a.contentDisposition());
        }
        if (a.contentEncoding() != null) {
            req.contentEncoding(a.contentEncoding());
        }
        if (a.contentLanguage() != null) {
            req.contentLanguage(a.contentLanguage());
        }
        Instant expires = parseHttpDate(a.expires());
        if (expires != null) {
            req.expires(expires);
        }
        return req.build();
    }

    @Override
    public void recordUploads(UploadJournal journal) {
        multipart.recordUploads(journal);
    }

    @Override
    public void abortUploads(List<PendingUpload> uploads) throws IOException {
        multipart.abortLeftovers(uploads);
    }

    /** Multipart objects written with one PUT because the destination refused their parts; the ETag warnings. */
    @Override
    public List<String> warnings() {
        return multipart.warnings();
    }

    private static Instant parseHttpDate(String value) {
        if (value == null) {
            return null;
        }
        try {
            return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private IOException fail(String what, Exception e) {
        String detail = e instanceof S3Exception s3e
                ? "HTTP " + s3e.statusCode() + (s3e.awsErrorDetails() == null ? "" : " " + s3e.awsErrorDetails().errorCode())
                : e.getMessage();
        return new IOException(description + ": " + what + ": " + detail, e);
    }

    @Override
    public void close() {
        multipart.close();
        s3.close();
    }
}
