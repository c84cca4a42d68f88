package dev.cairn.store;

/** A bucket: its name, creation time (epoch millis) and access policy. */
public record BucketInfo(String name, long createdMillis, BucketAcl acl) {
}
