package dev.cairn.service.s3;

/** The S3 errors Cairn answers with: code, HTTP status and a default message. */
public enum S3Error {
    ACCESS_DENIED("AccessDenied", 403, "Access Denied"),
    BAD_DIGEST("BadDigest", 400, "The Content-MD5 or checksum you specified did not match what was received."),
    BUCKET_ALREADY_OWNED_BY_YOU("BucketAlreadyOwnedByYou", 409, "Your previous request to create the named bucket succeeded and you already own it."),
    BUCKET_NOT_EMPTY("BucketNotEmpty", 409, "The bucket you tried to delete is not empty."),
    CONDITIONAL_REQUEST_CONFLICT("ConditionalRequestConflict", 409, "A conflicting operation occurred. If using PutObject you can retry the request. If using multipart upload you should initiate another CreateMultipartUpload request and re-upload each part."),
    ENTITY_TOO_LARGE("EntityTooLarge", 400, "Your proposed upload exceeds the maximum allowed object size."),
    ENTITY_TOO_SMALL("EntityTooSmall", 400, "Your proposed upload is smaller than the minimum allowed object size."),
    /** The data directory's disk is full (see docs/reliability.md); not retried by SDKs, unlike a 503. */
    INSUFFICIENT_STORAGE("InsufficientStorage", 507, "There is not enough free space on the server to store this request. Reads and deletes are still served; writes succeed again once space is freed."),
    INCOMPLETE_BODY("IncompleteBody", 400, "You did not provide the number of bytes specified by the Content-Length HTTP header."),
    INTERNAL_ERROR("InternalError", 500, "We encountered an internal error. Please try again."),
    ILLEGAL_LOCATION_CONSTRAINT("IllegalLocationConstraintException", 400, "The location constraint does not match the region of this endpoint."),
    INVALID_ARGUMENT("InvalidArgument", 400, "Invalid Argument"),
    INVALID_BUCKET_NAME("InvalidBucketName", 400, "The specified bucket is not valid."),
    INVALID_DIGEST("InvalidDigest", 400, "The Content-MD5 or checksum you specified is not valid."),
    INVALID_PART("InvalidPart", 400, "One or more of the specified parts could not be found."),
    INVALID_PART_NUMBER("InvalidPartNumber", 416, "The requested partnumber is not satisfiable"),
    INVALID_PART_ORDER("InvalidPartOrder", 400, "The list of parts was not in ascending order."),
    INVALID_RANGE("InvalidRange", 416, "The requested range is not satisfiable"),
    INVALID_REQUEST("InvalidRequest", 400, "Invalid Request"),
    REQUEST_HEADER_SECTION_TOO_LARGE("RequestHeaderSectionTooLarge", 400,
            "Your request header section exceeds the maximum allowed size."),
    KEY_TOO_LONG("KeyTooLongError", 400, "Your key is too long"),
    MALFORMED_XML("MalformedXML", 400, "The XML you provided was not well-formed or did not validate against our published schema."),
    METADATA_TOO_LARGE("MetadataTooLarge", 400, "Your metadata headers exceed the maximum allowed metadata size."),
    METHOD_NOT_ALLOWED("MethodNotAllowed", 405, "The specified method is not allowed against this resource."),
    MISSING_CONTENT_LENGTH("MissingContentLength", 411, "You must provide the Content-Length HTTP header."),
    NO_SUCH_BUCKET("NoSuchBucket", 404, "The specified bucket does not exist"),
    NO_SUCH_KEY("NoSuchKey", 404, "The specified key does not exist."),
    NO_SUCH_UPLOAD("NoSuchUpload", 404, "The specified multipart upload does not exist."),
    NO_SUCH_VERSION("NoSuchVersion", 404, "The specified version does not exist."),
    NOT_FOUND("NotFound", 404, "Not Found"),
    NOT_IMPLEMENTED("NotImplemented", 501, "A header or query you provided requested a function that is not implemented."),
    NOT_MODIFIED("NotModified", 304, "Not Modified"),
    PRECONDITION_FAILED("PreconditionFailed", 412, "At least one of the pre-conditions you specified did not hold"),
    REQUEST_TIMEOUT("RequestTimeout", 400, "Your socket connection to the server was not read from or written to within the timeout period."),
    SLOW_DOWN("SlowDown", 503, "Please reduce your request rate."),
    X_AMZ_CONTENT_SHA256_MISMATCH("XAmzContentSHA256Mismatch", 400, "The provided 'x-amz-content-sha256' header does not match what was computed.");

    private final String code;
    private final int status;
    private final String message;

    S3Error(String code, int status, String message) {
        this.code = code;
        this.status = status;
        this.message = message;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }

    public String message() {
        return message;
    }
}
