package dev.cairn.service.s3;

import java.util.List;
import java.util.Locale;

/**
 * Request headers that ask S3 for behaviour Cairn does not have: encryption, storage classes,
 * tags, website redirects, object lock. Ignoring them would be a wrong success (the client
 * believes its object is encrypted, tagged, locked), so they answer NotImplemented. Stateless.
 */
final class UnsupportedHeaders {
    private static final List<String> OBJECT_WRITE = List.of("x-amz-server-side-encryption",
            "x-amz-server-side-encryption-aws-kms-key-id", "x-amz-server-side-encryption-context",
            "x-amz-server-side-encryption-bucket-key-enabled", "x-amz-server-side-encryption-customer-algorithm",
            "x-amz-server-side-encryption-customer-key", "x-amz-server-side-encryption-customer-key-md5",
            "x-amz-tagging", "x-amz-website-redirect-location", "x-amz-object-lock-mode",
            "x-amz-object-lock-retain-until-date", "x-amz-object-lock-legal-hold");
    private static final List<String> COPY_SOURCE = List.of(
            "x-amz-copy-source-server-side-encryption-customer-algorithm",
            "x-amz-copy-source-server-side-encryption-customer-key",
            "x-amz-copy-source-server-side-encryption-customer-key-md5");
    private static final List<String> PART = List.of("x-amz-server-side-encryption-customer-algorithm",
            "x-amz-server-side-encryption-customer-key", "x-amz-server-side-encryption-customer-key-md5");
    private static final String STANDARD = "STANDARD";

    private UnsupportedHeaders() {
    }

    /** PutObject, CopyObject (its destination) and CreateMultipartUpload. */
    static void checkObjectWrite(S3Request r) throws S3Exception {
        refuseAny(r, OBJECT_WRITE);
        String storageClass = r.header("x-amz-storage-class");
        if (storageClass != null && !storageClass.trim().toUpperCase(Locale.ROOT).equals(STANDARD)) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "only the STANDARD storage class is supported");
        }
        String taggingDirective = r.header("x-amz-tagging-directive");
        if (taggingDirective != null && !taggingDirective.trim().equalsIgnoreCase("COPY")) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "object tags are not supported");
        }
        refuseAny(r, COPY_SOURCE);
    }

    /** UploadPart and UploadPartCopy. */
    static void checkPart(S3Request r) throws S3Exception {
        refuseAny(r, PART);
        refuseAny(r, COPY_SOURCE);
    }

    /** CreateBucket. */
    static void checkCreateBucket(S3Request r) throws S3Exception {
        String lock = r.header("x-amz-bucket-object-lock-enabled");
        if (lock != null && lock.trim().equalsIgnoreCase("true")) {
            throw new S3Exception(S3Error.NOT_IMPLEMENTED, "object lock is not supported");
        }
    }

    private static void refuseAny(S3Request r, List<String> names) throws S3Exception {
        for (String name : names) {
            if (r.header(name) != null) {
                throw new S3Exception(S3Error.NOT_IMPLEMENTED, "the " + name + " header is not supported");
            }
        }
    }
}
