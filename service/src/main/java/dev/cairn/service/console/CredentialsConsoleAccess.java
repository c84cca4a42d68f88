package dev.cairn.service.console;

import dev.cairn.service.auth.CredentialsProvider;

/**
 * The access of the service as it stands: every known access key may do everything, as it may
 * through S3. Thread-safe.
 */
public final class CredentialsConsoleAccess implements ConsoleAccess {
    private final CredentialsProvider credentials;

    public CredentialsConsoleAccess(CredentialsProvider credentials) {
        this.credentials = credentials;
    }

    @Override
    public boolean may(String accessKey, String bucket, Action action) {
        return accessKey != null && credentials.secretKey(accessKey).isPresent();
    }
}
