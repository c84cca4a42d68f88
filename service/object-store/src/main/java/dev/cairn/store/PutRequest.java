package dev.cairn.store;

import java.util.Map;
import java.util.Objects;

/**
 * One object write, as {@link ObjectStore#putObject} takes it: where it goes, its content and what
 * describes it, and the condition on the object it replaces. The store takes key, size, digest and
 * time itself. Start from {@link #of} and add what differs from the defaults.
 *
 * @param attributes   the object's headers and ACL
 * @param etag         the ETag the content is answered with
 * @param partCount    the number of parts of a multipart object; 0 for a single-part one
 * @param checksums    the checksums the client sent, by algorithm
 * @param onlyIfAbsent fail with PRECONDITION_FAILED when the key exists ({@code If-None-Match: *})
 * @param ifMatch      write only if the key exists with this ETag ({@code If-Match}; {@code *} any);
 *                     NO_SUCH_KEY when it is absent, PRECONDITION_FAILED when it differs; null: no condition
 */
public record PutRequest(String bucket, String key, ObjectAttributes attributes, ContentSource content,
                         String etag, int partCount, Map<String, String> checksums,
                         boolean onlyIfAbsent, String ifMatch) {

    public PutRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(attributes, "attributes");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(checksums, "checksums");
    }

    /** An unconditional write of a single-part object with no attributes and no checksums. */
    public static PutRequest of(String bucket, String key, ContentSource content, String etag) {
        return new PutRequest(bucket, key, ObjectAttributes.EMPTY, content, etag, 0, Map.of(), false, null);
    }

    public PutRequest withAttributes(ObjectAttributes attributes) {
        return new PutRequest(bucket, key, attributes, content, etag, partCount, checksums, onlyIfAbsent, ifMatch);
    }

    public PutRequest withPartCount(int partCount) {
        return new PutRequest(bucket, key, attributes, content, etag, partCount, checksums, onlyIfAbsent, ifMatch);
    }

    public PutRequest withChecksums(Map<String, String> checksums) {
        return new PutRequest(bucket, key, attributes, content, etag, partCount, checksums, onlyIfAbsent, ifMatch);
    }

    public PutRequest withOnlyIfAbsent(boolean onlyIfAbsent) {
        return new PutRequest(bucket, key, attributes, content, etag, partCount, checksums, onlyIfAbsent, ifMatch);
    }

    public PutRequest withIfMatch(String ifMatch) {
        return new PutRequest(bucket, key, attributes, content, etag, partCount, checksums, onlyIfAbsent, ifMatch);
    }

    /** Whether the write depends on the object it replaces. */
    public boolean conditional() {
        return onlyIfAbsent || ifMatch != null;
    }
}
