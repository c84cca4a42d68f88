package dev.cairn.service.s3;

import dev.cairn.store.ObjectInfo;
import dev.cairn.store.StoreException;
import java.io.IOException;
import java.util.Map;

/**
 * Reads of bucket and object configuration that Cairn never holds, answered as S3 answers them
 * for a bucket or object that has none: the configuration's own "not found" error (GetBucketPolicy,
 * GetBucketLifecycle, …) or its empty document (GetBucketLogging, GetObjectTagging, …). Clients such as
 * s3cmd {@code info}, rclone, Terraform and audit tools read these and take "none" for an answer,
 * whereas NotImplemented stops them. Writing such configuration stays NotImplemented
 * ({@code S3FrontDoor}); deleting it (DeleteBucketPolicy, …, DeleteObjectTagging)
 * answers 204 as S3 does when there is nothing to delete. Stateless; thread-safe.
 */
final class UnsetConfigurationHandler {
    /** A bucket sub-resource S3 answers with an error when it is not set: code and message. */
    private record Absent(String code, String message) {
    }

    private static final Map<String, Absent> ABSENT = Map.ofEntries(
            Map.entry("policy", new Absent("NoSuchBucketPolicy", "The bucket policy does not exist")),
            Map.entry("policyStatus", new Absent("NoSuchBucketPolicy", "The bucket policy does not exist")),
            Map.entry("lifecycle", new Absent("NoSuchLifecycleConfiguration", "The lifecycle configuration does not exist")),
            Map.entry("encryption", new Absent("ServerSideEncryptionConfigurationNotFoundError",
                    "The server side encryption configuration was not found")),
            Map.entry("tagging", new Absent("NoSuchTagSet", "The TagSet does not exist")),
            Map.entry("website", new Absent("NoSuchWebsiteConfiguration", "The specified bucket does not have a website configuration")),
            Map.entry("replication", new Absent("ReplicationConfigurationNotFoundError",
                    "The replication configuration was not found")),
            Map.entry("publicAccessBlock", new Absent("NoSuchPublicAccessBlockConfiguration",
                    "The public access block configuration was not found")),
            Map.entry("ownershipControls", new Absent("OwnershipControlsNotFoundError",
                    "The bucket ownership controls were not found")),
            Map.entry("object-lock", new Absent("ObjectLockConfigurationNotFoundError",
                    "Object Lock configuration does not exist for this bucket")));

    /** A bucket sub-resource S3 answers with a document even when nothing is set: its root element. */
    private static final Map<String, String> EMPTY = Map.of(
            "logging", "BucketLoggingStatus",
            "notification", "NotificationConfiguration",
            "accelerate", "AccelerateConfiguration",
            "requestPayment", "RequestPaymentConfiguration");

    /** The bucket sub-resources S3 has a DELETE for, answered 204 when none is set. */
    private static final java.util.Set<String> DELETABLE = java.util.Set.of("policy", "lifecycle",
            "encryption", "tagging", "website", "replication", "publicAccessBlock", "ownershipControls");

    private final S3Context ctx;

    UnsetConfigurationHandler(S3Context ctx) {
        this.ctx = ctx;
    }

    /** The sub-resource of a bucket GET this handler answers, or null. */
    static String bucketSubresource(S3Request r) {
        for (String name : r.query.keySet()) {
            if (ABSENT.containsKey(name) || EMPTY.containsKey(name)) {
                return name;
            }
        }
        return null;
    }

    /** The sub-resource of a bucket DELETE this handler answers, or null. */
    static String deletableSubresource(S3Request r) {
        for (String name : r.query.keySet()) {
            if (DELETABLE.contains(name)) {
                return name;
            }
        }
        return null;
    }

    void deleteBucketConfiguration(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        r.sendEmpty(204);
    }

    void getBucketConfiguration(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        String name = bucketSubresource(r);
        Absent absent = ABSENT.get(name);
        if (absent != null) {
            throw new S3Exception(absent.code(), 404, absent.message());
        }
        Xml empty = Xml.document(EMPTY.get(name));
        if (name.equals("requestPayment")) {
            empty.element("Payer", "BucketOwner");
        }
        r.sendXml(200, empty);
    }

    void getObjectTagging(S3Request r) throws IOException, S3Exception {
        requireObject(r);
        r.sendXml(200, Xml.document("Tagging").start("TagSet").end());
    }

    void deleteObjectTagging(S3Request r) throws IOException, S3Exception {
        requireObject(r);
        r.sendEmpty(204);
    }

    private void requireBucket(S3Request r) throws IOException {
        if (ctx.store().bucket(r.bucket()) == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, r.bucket());
        }
    }

    private ObjectInfo requireObject(S3Request r) throws IOException, S3Exception {
        requireBucket(r);
        String versionId = ObjectReadHandler.versionIdParam(r);
        ObjectInfo o = versionId == null ? ctx.store().headObject(r.bucket(), r.key())
                : ObjectReadHandler.objectVersion(ctx, r, versionId);
        if (o == null) {
            throw new S3Exception(S3Error.NO_SUCH_KEY);
        }
        return o;
    }
}
