package dev.cairn.service.auth;

import java.io.IOException;
import java.util.Objects;

/**
 * Thrown by a body stream from {@link AuthResult#wrapBody} when the payload fails verification
 * (chunk or trailer signature, payload hash, trailer checksum, framing, length). Whatever was read
 * before must be discarded: nothing of the request may be stored.
 */
public final class AuthFailureIOException extends IOException {
    private static final long serialVersionUID = 1L;

    private final AuthException failure;

    public AuthFailureIOException(AuthException failure) {
        super(Objects.requireNonNull(failure, "failure").getMessage());
        this.failure = failure;
    }

    /** The S3 error to answer with. */
    public AuthException failure() {
        return failure;
    }
}
