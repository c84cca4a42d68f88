package dev.cairn.service.s3;

/** The S3 operations Cairn serves, named as in the S3 API (metrics and the access log use the names). */
public enum Operation {
    LIST_BUCKETS("ListBuckets", false),
    CREATE_BUCKET("CreateBucket", false),
    HEAD_BUCKET("HeadBucket", true),
    DELETE_BUCKET("DeleteBucket", false),
    GET_BUCKET_LOCATION("GetBucketLocation", true),
    GET_BUCKET_VERSIONING("GetBucketVersioning", true),
    PUT_BUCKET_VERSIONING("PutBucketVersioning", false),
    GET_BUCKET_ACL("GetBucketAcl", false),
    PUT_BUCKET_ACL("PutBucketAcl", false),
    LIST_OBJECTS("ListObjects", true),
    LIST_OBJECTS_V2("ListObjectsV2", true),
    LIST_OBJECT_VERSIONS("ListObjectVersions", true),
    PUT_OBJECT("PutObject", false),
    COPY_OBJECT("CopyObject", false),
    GET_OBJECT("GetObject", true),
    HEAD_OBJECT("HeadObject", true),
    GET_OBJECT_ACL("GetObjectAcl", false),
    PUT_OBJECT_ACL("PutObjectAcl", false),
    DELETE_OBJECT("DeleteObject", false),
    DELETE_OBJECTS("DeleteObjects", false),
    CREATE_MULTIPART_UPLOAD("CreateMultipartUpload", false),
    UPLOAD_PART("UploadPart", false),
    UPLOAD_PART_COPY("UploadPartCopy", false),
    COMPLETE_MULTIPART_UPLOAD("CompleteMultipartUpload", false),
    ABORT_MULTIPART_UPLOAD("AbortMultipartUpload", false),
    LIST_PARTS("ListParts", false),
    LIST_MULTIPART_UPLOADS("ListMultipartUploads", false),
    /** A read of bucket configuration Cairn never holds (GetBucketPolicy, GetBucketLifecycle, …): its "none" answer. */
    GET_BUCKET_CONFIGURATION("GetBucketConfiguration", false),
    /** A delete of bucket configuration Cairn never holds (DeleteBucketPolicy, DeleteBucketLifecycle, …): nothing to delete. */
    DELETE_BUCKET_CONFIGURATION("DeleteBucketConfiguration", false),
    PUT_BUCKET_CORS("PutBucketCors", false),
    GET_BUCKET_CORS("GetBucketCors", false),
    DELETE_BUCKET_CORS("DeleteBucketCors", false),
    /** A browser's CORS preflight ({@code OPTIONS}), answered from the bucket's rules without credentials. */
    PREFLIGHT("PreflightRequest", false),
    GET_OBJECT_ATTRIBUTES("GetObjectAttributes", false),
    GET_OBJECT_TAGGING("GetObjectTagging", false),
    DELETE_OBJECT_TAGGING("DeleteObjectTagging", false),
    GET_CONTENT("GetContent", true),
    UNSUPPORTED("Unsupported", true);

    private final String apiName;
    private final boolean publicRead;

    Operation(String apiName, boolean publicRead) {
        this.apiName = apiName;
        this.publicRead = publicRead;
    }

    public String apiName() {
        return apiName;
    }

    /** Whether an anonymous request may perform it on a public-read bucket. */
    public boolean publicRead() {
        return publicRead;
    }
}
