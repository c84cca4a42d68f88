package dev.cairn.service.s3;

import dev.cairn.service.keys.Access;
import dev.cairn.service.keys.AccessKey;
import dev.cairn.service.keys.KeyRing;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import java.io.IOException;
import java.util.function.Predicate;

/**
 * Decides what a request may do, after {@link Authenticator} said who sent it (docs/security.md):
 *
 * <ul>
 *   <li>a signed request needs its key's role to grant the operation's {@link Access} on the
 *       bucket (CopyObject and UploadPartCopy also READ on the source's; PutObjectAcl and
 *       DeleteObjectTagging READ and WRITE); a key without an S3 role (metrics, backup) may do nothing;
 *   <li>an anonymous request may only read: from a public-read bucket anything an anonymous
 *       operation reads, elsewhere a GET or HEAD of a public-read object, which the read handler
 *       checks once it has the object (a missing or private one answers AccessDenied, so an
 *       anonymous reader learns nothing of what a private bucket holds).
 * </ul>
 *
 * Refusals are AccessDenied (403) before any handler runs, so nothing is read or stored. The
 * request's {@code x-amz-expected-bucket-owner} (and {@code x-amz-source-expected-bucket-owner})
 * must be the owner's id, as in S3.
 *
 * <p>Thread-safe: the key ring is.
 */
final class Authorizer {
    private final S3Context ctx;
    private final KeyRing keys;

    /** {@code keys} null: every signed request may do everything. */
    Authorizer(S3Context ctx, KeyRing keys) {
        this.ctx = ctx;
        this.keys = keys;
    }

    /**
     * Refuses what the request may not do.
     *
     * @return whether it may read only what is public-read (anonymous, or a key whose roles do
     *         not reach the content it asks for by hash)
     */
    boolean check(S3Request r) throws IOException, S3Exception {
        checkExpectedOwner(r, "x-amz-expected-bucket-owner");
        checkExpectedOwner(r, "x-amz-source-expected-bucket-owner");
        if (r.auth.isAnonymous()) {
            return checkAnonymous(r);
        }
        if (keys == null) {
            return false;
        }
        AccessKey key = keys.key(r.auth.accessKey());
        // Null: removed from the key file after its signature was checked. Metrics and backup
        // keys make no S3 request: a leaked one lists nothing and reads nothing, public or not.
        require(key != null && key.s3());
        Operation op = r.operation;
        switch (op) {
            case LIST_BUCKETS, UNSUPPORTED -> {
                return false;
            }
            case PUT_OBJECT_ACL, DELETE_OBJECT_TAGGING -> {
                // They change who may read an object, or nothing at all (Cairn holds no tags), of an
                // object that must exist: to a key that cannot read, they would only reveal which
                // keys exist, or let it grant a read it does not hold. Refused before any lookup.
                require(key.allows(Access.READ, r.bucket()) && key.allows(Access.WRITE, r.bucket()));
                return false;
            }
            case GET_CONTENT -> {
                return !key.allows(Access.READ, null);
            }
            case HEAD_BUCKET, GET_BUCKET_LOCATION, GET_BUCKET_VERSIONING, LIST_MULTIPART_UPLOADS, LIST_PARTS -> {
                require(key.sees(r.bucket()));
                return false;
            }
            case COPY_OBJECT, UPLOAD_PART_COPY -> {
                require(key.allows(Access.WRITE, r.bucket()));
                require(key.allows(Access.READ, ObjectWriteHandler.copySource(r)[0]));
                return false;
            }
            default -> {
                require(key.allows(accessOf(op), r.bucket()));
                return false;
            }
        }
    }

    /** What an operation on a bucket needs, for those not decided in {@link #check}. */
    static Access accessOf(Operation op) {
        return switch (op) {
            case CREATE_BUCKET, DELETE_BUCKET, PUT_BUCKET_ACL, PUT_BUCKET_VERSIONING, DELETE_BUCKET_CONFIGURATION,
                    PUT_BUCKET_CORS, DELETE_BUCKET_CORS -> Access.MANAGE;
            case GET_BUCKET_CORS, GET_BUCKET_ACL, LIST_OBJECTS, LIST_OBJECTS_V2, LIST_OBJECT_VERSIONS, GET_OBJECT, HEAD_OBJECT,
                    GET_OBJECT_ACL, GET_BUCKET_CONFIGURATION, GET_OBJECT_ATTRIBUTES, GET_OBJECT_TAGGING -> Access.READ;
            default -> Access.WRITE;
        };
    }

    /** The buckets a ListBuckets request shows: those its key holds a role on. */
    Predicate<String> visibleBuckets(S3Request r) {
        if (keys == null || r.auth.isAnonymous()) {
            return b -> true;
        }
        AccessKey key = keys.key(r.auth.accessKey());
        return key == null ? b -> false : key::sees;
    }

    private boolean checkAnonymous(S3Request r) throws IOException, S3Exception {
        Operation op = r.operation;
        require(op.publicRead());
        if (op == Operation.GET_CONTENT) {
            return true;
        }
        BucketInfo b = r.bucket == null ? null : r.bucketKnown ? r.bucketInfo : ctx.store().bucket(r.bucket);
        if (b != null && b.acl() == BucketAcl.PUBLIC_READ) {
            return false;
        }
        require(b != null && (op == Operation.GET_OBJECT || op == Operation.HEAD_OBJECT));
        return true;
    }

    private void checkExpectedOwner(S3Request r, String header) throws S3Exception {
        String expected = r.header(header);
        if (expected != null && !expected.trim().equals(ctx.ownerId())) {
            throw new S3Exception(S3Error.ACCESS_DENIED);
        }
    }

    private static void require(boolean allowed) throws S3Exception {
        if (!allowed) {
            throw new S3Exception(S3Error.ACCESS_DENIED);
        }
    }
}
