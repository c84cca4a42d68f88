package dev.cairn.service.s3;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

/**
 * Who sent a request and how its body is to be read. Not thread-safe: one per request.
 */
public interface Authentication {

    /** The access key that signed the request; null when anonymous. */
    String accessKey();

    default boolean isAnonymous() {
        return accessKey() == null;
    }

    /**
     * The payload's length once decoded (for aws-chunked bodies the declared decoded length),
     * or -1 when undeclared.
     */
    long decodedContentLength();

    /**
     * The decoded body, verified while it is read (payload hash, chunk signatures, trailer
     * checksums); a failure surfaces as an {@link IOException} that {@link Authenticator#failureOf}
     * turns into an S3 error. Call at most once.
     */
    InputStream wrapBody(InputStream raw) throws IOException;

    /** Trailing headers (lower-case names) once the body has been read to its end; else empty. */
    Map<String, String> trailers();
}
