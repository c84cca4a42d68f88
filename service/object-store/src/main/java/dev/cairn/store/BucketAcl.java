package dev.cairn.store;

/**
 * A bucket's or an object's canned access policy. DO NOT CHANGE the codes: embedded in on-disk
 * data (bucket rows, object records).
 */
public enum BucketAcl {
    /** Only signed requests read or write. */
    PRIVATE(0, "private"),
    /**
     * Anyone may read: a bucket's objects (and their content by hash), or one object; writes still
     * need a signature.
     */
    PUBLIC_READ(1, "public-read");

    private final int code;
    private final String cannedName;

    BucketAcl(int code, String cannedName) {
        this.code = code;
        this.cannedName = cannedName;
    }

    public int code() {
        return code;
    }

    /** The S3 canned ACL name ({@code x-amz-acl}). */
    public String cannedName() {
        return cannedName;
    }

    public static BucketAcl ofCode(int code) {
        for (BucketAcl acl : values()) {
            if (acl.code == code) {
                return acl;
            }
        }
        throw new IllegalArgumentException("unknown bucket ACL code " + code);
    }

    /** The ACL of an S3 canned name, or null when Cairn does not support that name. */
    public static BucketAcl ofCannedName(String name) {
        for (BucketAcl acl : values()) {
            if (acl.cannedName.equals(name)) {
                return acl;
            }
        }
        return null;
    }
}
