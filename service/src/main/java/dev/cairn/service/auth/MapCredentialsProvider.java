package dev.cairn.service.auth;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A fixed, immutable set of access key → secret key pairs.
 *
 * <p>Thread-safe: immutable.
 */
public final class MapCredentialsProvider implements CredentialsProvider {
    private final Map<String, String> secretsByAccessKey;

    public MapCredentialsProvider(Map<String, String> secretsByAccessKey) {
        Objects.requireNonNull(secretsByAccessKey, "secretsByAccessKey");
        secretsByAccessKey.forEach((accessKey, secret) -> {
            if (accessKey == null || accessKey.isEmpty() || secret == null || secret.isEmpty()) {
                // Names the access key only: a secret never appears in a message.
                throw new IllegalArgumentException("empty access key or secret for access key '" + accessKey + "'");
            }
        });
        this.secretsByAccessKey = Map.copyOf(secretsByAccessKey);
    }

    @Override
    public Optional<String> secretKey(String accessKey) {
        return Optional.ofNullable(secretsByAccessKey.get(accessKey));
    }

    @Override
    public String toString() {
        return "MapCredentialsProvider[" + secretsByAccessKey.size() + " access keys]";
    }
}
