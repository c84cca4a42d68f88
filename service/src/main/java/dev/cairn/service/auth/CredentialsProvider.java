package dev.cairn.service.auth;

import java.util.Map;
import java.util.Optional;

/**
 * Looks up the secret key of an access key.
 *
 * <p>Implementations must be thread-safe: the verifier calls them from any request thread.
 */
@FunctionalInterface
public interface CredentialsProvider {

    /** The secret of {@code accessKey}, or empty when the access key is unknown. */
    Optional<String> secretKey(String accessKey);

    /** A provider over a fixed set of access key → secret key pairs (copied). */
    static CredentialsProvider of(Map<String, String> secretsByAccessKey) {
        return new MapCredentialsProvider(secretsByAccessKey);
    }
}
