package dev.cairn.store;

import java.nio.charset.StandardCharsets;

/**
 * One configuration document of a bucket, set or removed through
 * {@link ObjectStore#setBucketDocument}: its kind ({@link #CORS}; later kinds such as a policy or
 * lifecycle rules take their own name) and its text, which the store keeps as given without
 * reading it (the S3 layer checks and writes it). A null text removes the bucket's document of
 * that kind. Documents travel with the bucket through restarts, backups and restores.
 */
public record BucketDocument(String bucket, String kind, String text) {
    /** The bucket's CORS configuration, as the XML GetBucketCors answers. */
    public static final String CORS = "cors";
    /** The longest kind name. */
    public static final int MAX_KIND_BYTES = 64;
    /** The longest text: S3 caps a bucket's CORS configuration, and its policy, far below this. */
    public static final int MAX_TEXT_BYTES = 256 * 1024;

    public BucketDocument {
        if (bucket == null || kind == null || kind.isEmpty() || kind.getBytes(StandardCharsets.UTF_8).length > MAX_KIND_BYTES) {
            throw new IllegalArgumentException("a bucket document needs a bucket and a kind of 1 to "
                    + MAX_KIND_BYTES + " bytes");
        }
        if (text != null && text.getBytes(StandardCharsets.UTF_8).length > MAX_TEXT_BYTES) {
            throw new IllegalArgumentException("a bucket document is at most " + MAX_TEXT_BYTES + " bytes");
        }
    }

    /** The bucket's document of {@code kind} set to {@code text}. */
    public static BucketDocument of(String bucket, String kind, String text) {
        return new BucketDocument(bucket, kind, text);
    }

    /** The bucket's document of {@code kind} removed. */
    public static BucketDocument removed(String bucket, String kind) {
        return new BucketDocument(bucket, kind, null);
    }
}
