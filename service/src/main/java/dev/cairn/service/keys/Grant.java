package dev.cairn.service.keys;

/**
 * A role on one bucket, or on every bucket when {@code bucket} is null. Written
 * {@code role} or {@code role:bucket} in the key file.
 */
public record Grant(Role role, String bucket) {

    public Grant {
        if (role == null) {
            throw new IllegalArgumentException("a grant needs a role");
        }
        if (bucket != null && !role.perBucket()) {
            throw new IllegalArgumentException("the " + role.fileName() + " role is for all buckets, not one");
        }
        if (bucket != null && (bucket.isEmpty() || !bucket.matches("[a-z0-9][a-z0-9.-]*"))) {
            throw new IllegalArgumentException("'" + bucket + "' is not a bucket name");
        }
    }

    public static Grant parse(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            return new Grant(Role.ofFileName(text), null);
        }
        return new Grant(Role.ofFileName(text.substring(0, colon)), text.substring(colon + 1));
    }

    public boolean covers(String b) {
        return bucket == null || bucket.equals(b);
    }

    @Override
    public String toString() {
        return bucket == null ? role.fileName() : role.fileName() + ":" + bucket;
    }
}
