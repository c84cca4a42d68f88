package dev.cairn.backup.restore;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Restores into an S3 endpoint, each bucket under its own name. Attributes and user metadata are
 * sent as headers; the server computes the ETag itself (an object backed up from a multipart
 * upload gets a single-part ETag) and sets the time. Each PUT carries the content's SHA-256.
 * Buckets with versioning are not restored through S3 ({@link #restoresVersions}).
 */
public final class S3Destination implements RestoreDestination {
    private final S3Client s3;
    private final String description;

    public S3Destination(S3Client s3, String description) {
        this.s3 = s3;
        this.description = description;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public boolean bucketHasObjects(String bucket) throws IOException {
        try {
            return !s3.listObjectsV2(b -> b.bucket(bucket).maxKeys(1)).contents().isEmpty();
        } catch (NoSuchBucketException e) {
            return false;
        } catch (SdkException e) {
            throw fail("cannot list bucket " + bucket, e);
        }
    }

    @Override
    public void ensureBucket(BucketInfo bucket) throws IOException {
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

    /** S3 lets no client choose a version's id or time: versions are not restored through it. */
    @Override
    public boolean restoresVersions() {
        return false;
    }

    @Override
    public void put(BackupRow backupRow, ContentSource content) throws IOException {
        if (backupRow.isVersion()) {
            throw new IOException(description + " cannot restore object versions (" + backupRow.bucket() + "/"
                    + backupRow.key() + ")");
        }
        String bucket = backupRow.bucket();
        ObjectInfo row = backupRow.info();
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
        try {
            s3.putObject(req.build(), RequestBody.fromContentProvider(() -> {
                try {
                    return content.open();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }, row.size(), a.contentType() == null ? "application/octet-stream" : a.contentType()));
        } catch (SdkException | java.io.UncheckedIOException e) {
            throw fail("cannot write " + bucket + "/" + row.key(), e);
        }
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
        s3.close();
    }
}
