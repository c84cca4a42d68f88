package dev.cairn.service.s3;

/**
 * A request answered with an S3 error. Carries either one of Cairn's {@link S3Error}s or a code
 * and status given by another layer (authentication).
 */
public final class S3Exception extends Exception {
    private final String code;
    private final int status;
    private final String region;
    private final java.util.Map<String, String> details;

    public S3Exception(S3Error error) {
        this(error, error.message());
    }

    public S3Exception(S3Error error, String message) {
        this(error.code(), error.status(), message);
    }

    public S3Exception(String code, int status, String message) {
        this(code, status, message, null);
    }

    /** @param region the region requests must be signed for, answered as {@code <Region>}; null: none */
    public S3Exception(String code, int status, String message, String region) {
        this(code, status, message, region, java.util.Map.of());
    }

    /** @param details further elements of the error document, in order (S3's StringToSign of a SignatureDoesNotMatch) */
    public S3Exception(String code, int status, String message, String region, java.util.Map<String, String> details) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
        this.region = region;
        this.details = details;
    }

    /** Further elements of the error document, in order; empty when none. */
    public java.util.Map<String, String> details() {
        return details;
    }

    /** The region the error names (a request signed for another); null when none. */
    public String region() {
        return region;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }
}
