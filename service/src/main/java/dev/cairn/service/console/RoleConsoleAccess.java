package dev.cairn.service.console;

import dev.cairn.service.keys.Access;
import dev.cairn.service.keys.AccessKey;
import dev.cairn.service.keys.KeyRing;

/**
 * The console's access from the keys' roles, the same rules S3 applies (docs/security.md):
 * seeing a bucket needs any role on it, browsing and reading need read, uploads and deletes need
 * write, managing a bucket needs admin on it, and the service-wide pages (operations, creating
 * buckets) need admin on every bucket. Thread-safe: the key ring reloads itself.
 */
public final class RoleConsoleAccess implements ConsoleAccess {
    private final KeyRing keys;

    public RoleConsoleAccess(KeyRing keys) {
        this.keys = keys;
    }

    @Override
    public boolean may(String accessKey, String bucket, Action action) {
        return switch (action) {
            case LIST -> bucket == null ? holdsAnS3Role(accessKey)
                    : keys.allows(accessKey, Access.READ, bucket) || keys.allows(accessKey, Access.WRITE, bucket);
            case READ -> keys.allows(accessKey, Access.READ, bucket);
            case WRITE, DELETE -> keys.allows(accessKey, Access.WRITE, bucket);
            case ADMIN -> keys.allows(accessKey, Access.MANAGE, bucket);
        };
    }

    /** Metrics and backup keys make no S3 request, so the console, a view of S3, is not theirs. */
    private boolean holdsAnS3Role(String accessKey) {
        AccessKey key = keys.key(accessKey);
        return key != null && key.s3();
    }
}
