package dev.cairn.service.auth;

/**
 * A request that fails authentication, or whose payload fails verification, with the S3 error code
 * and HTTP status to answer with. The message never contains a secret or a signing key.
 */
public final class AuthException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String s3Code;
    private final int httpStatus;
    private final String region;

    public AuthException(String s3Code, int httpStatus, String message) {
        this(s3Code, httpStatus, message, null);
    }

    private AuthException(String s3Code, int httpStatus, String message, String region) {
        super(message, null, false, false);
        this.s3Code = s3Code;
        this.httpStatus = httpStatus;
        this.region = region;
    }

    /** The same failure, naming the region requests must be signed for (S3's {@code <Region>}). */
    AuthException withRegion(String expected) {
        return new AuthException(s3Code, httpStatus, getMessage(), expected);
    }

    /** The region requests must be signed for, when the failure is a wrong one; else null. */
    public String region() {
        return region;
    }

    /** The S3 error code, such as {@code SignatureDoesNotMatch}. */
    public String s3Code() {
        return s3Code;
    }

    public int httpStatus() {
        return httpStatus;
    }

    @Override
    public String toString() {
        return "AuthException[" + s3Code + " " + httpStatus + "]: " + getMessage();
    }

    static AuthException signatureDoesNotMatch(String message) {
        return new AuthException("SignatureDoesNotMatch", 403, message);
    }

    static AuthException accessDenied(String message) {
        return new AuthException("AccessDenied", 403, message);
    }

    static AuthException headerMalformed(String message) {
        return new AuthException("AuthorizationHeaderMalformed", 400, message);
    }

    static AuthException queryMalformed(String message) {
        return new AuthException("AuthorizationQueryParametersError", 400, message);
    }

    static AuthException invalidArgument(String message) {
        return new AuthException("InvalidArgument", 400, message);
    }

    static AuthException invalidRequest(String message) {
        return new AuthException("InvalidRequest", 400, message);
    }

    static AuthException incompleteBody(String message) {
        return new AuthException("IncompleteBody", 400, message);
    }

    static AuthException malformedTrailer(String message) {
        return new AuthException("MalformedTrailerError", 400, message);
    }
}
