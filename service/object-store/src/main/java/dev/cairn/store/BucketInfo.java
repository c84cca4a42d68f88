package dev.cairn.store;

/** A bucket: its name, creation time (epoch millis), access policy and versioning state. */
public record BucketInfo(String name, long createdMillis, BucketAcl acl, Versioning versioning) {

    public BucketInfo {
        versioning = versioning == null ? Versioning.UNVERSIONED : versioning;
    }

    /** A bucket whose versioning was never configured. */
    public BucketInfo(String name, long createdMillis, BucketAcl acl) {
        this(name, createdMillis, acl, Versioning.UNVERSIONED);
    }
}
