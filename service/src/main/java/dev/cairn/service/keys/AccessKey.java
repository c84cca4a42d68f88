package dev.cairn.service.keys;

import java.util.List;

/** One access key of the key file: its secret and what it may do. */
public record AccessKey(String id, String secret, List<Grant> grants) {

    public AccessKey {
        if (id == null || id.isEmpty() || secret == null || secret.isEmpty()) {
            // Names the access key only: a secret never appears in a message.
            throw new IllegalArgumentException("empty access key or secret for access key '" + id + "'");
        }
        if (grants == null || grants.isEmpty()) {
            throw new IllegalArgumentException("access key " + id + " has no role");
        }
        grants = List.copyOf(grants);
    }

    /** Checks the form the key file requires (the configured keys keep whatever form they have). */
    public void checkFileForm() {
        if (!id.matches("[A-Za-z0-9._-]{3,128}")) {
            throw new IllegalArgumentException("an access key is 3 to 128 letters, digits, '.', '_' or '-'");
        }
        if (secret.length() < 8 || !secret.chars().allMatch(c -> c > ' ' && c < 127)) {
            throw new IllegalArgumentException("the secret of " + id + " must be at least 8 printable ASCII characters"
                    + " without spaces");
        }
    }

    /** Whether the key may {@code access} {@code bucket}; null asks for all buckets (a global grant). */
    public boolean allows(Access access, String bucket) {
        for (Grant g : grants) {
            if (g.role().allows(access) && (g.bucket() == null || g.bucket().equals(bucket))) {
                return true;
            }
        }
        return false;
    }

    /** Whether the key holds an S3 role on some bucket; metrics and backup keys make no S3 request. */
    public boolean s3() {
        for (Grant g : grants) {
            if (g.role().s3()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the key holds any S3 role on {@code bucket} (ListBuckets shows it). */
    public boolean sees(String bucket) {
        for (Grant g : grants) {
            if (g.role().s3() && g.covers(bucket)) {
                return true;
            }
        }
        return false;
    }

    public AccessKey withSecret(String newSecret) {
        return new AccessKey(id, newSecret, grants);
    }

    @Override
    public String toString() {
        return "AccessKey[" + id + ", " + grants + "]";
    }
}
