package dev.cairn.service.s3;

import java.io.IOException;

/**
 * Checks a request's signature. The S3 layer calls it once per request, before anything else;
 * it decides who signed, never what they may do.
 */
public interface Authenticator {

    /**
     * Authenticates the request: an anonymous {@link Authentication} when it carries no
     * signature, a signed one when its signature verifies.
     *
     * @throws S3Exception when a signature is present but wrong, expired or malformed
     */
    Authentication authenticate(HttpExchange request) throws S3Exception;

    /** The S3 error that a body read failure stands for, or null when it is a plain I/O error. */
    S3Exception failureOf(IOException e);
}
