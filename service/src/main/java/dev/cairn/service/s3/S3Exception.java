package dev.cairn.service.s3;

/**
 * A request answered with an S3 error. Carries either one of Cairn's {@link S3Error}s or a code
 * and status given by another layer (authentication).
 */
public final class S3Exception extends Exception {
    private final String code;
    private final int status;

    public S3Exception(S3Error error) {
        this(error, error.message());
    }

    public S3Exception(S3Error error, String message) {
        this(error.code(), error.status(), message);
    }

    public S3Exception(String code, int status, String message) {
        super(message, null, false, false);
        this.code = code;
        this.status = status;
    }

    public String code() {
        return code;
    }

    public int status() {
        return status;
    }
}
