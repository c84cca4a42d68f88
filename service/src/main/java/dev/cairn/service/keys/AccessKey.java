package dev.cairn.service.keys;

import java.util.List;
import java.util.Objects;

/**
 * One access key of the key file: its secret and what it may do. A value (equal keys have equal
 * id, secret and grants); not a record only because whether it holds an S3 role, asked on every
 * signed request, is worked out once here.
 */
public final class AccessKey {
    private final String id;
    private final String secret;
    private final List<Grant> grants;
    private final boolean s3;

    public AccessKey(String id, String secret, List<Grant> grants) {
        if (id == null || id.isEmpty() || secret == null || secret.isEmpty()) {
            // Names the access key only: a secret never appears in a message.
            throw new IllegalArgumentException("empty access key or secret for access key '" + id + "'");
        }
        if (grants == null || grants.isEmpty()) {
            throw new IllegalArgumentException("access key " + id + " has no role");
        }
        this.id = id;
        this.secret = secret;
        this.grants = List.copyOf(grants);
        this.s3 = this.grants.stream().anyMatch(g -> g.role().s3());
    }

    public String id() {
        return id;
    }

    public String secret() {
        return secret;
    }

    public List<Grant> grants() {
        return grants;
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
        return s3;
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
    public boolean equals(Object o) {
        return o instanceof AccessKey k && id.equals(k.id) && secret.equals(k.secret) && grants.equals(k.grants);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, secret, grants);
    }

    @Override
    public String toString() {
        return "AccessKey[" + id + ", " + grants + "]";
    }
}
