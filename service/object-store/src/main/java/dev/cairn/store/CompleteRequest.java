package dev.cairn.store;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The completion of a multipart upload, as {@link ObjectStore#completeUpload} takes it: the parts
 * named, in order, and how the object is written. Start from {@link #of} and add what differs
 * from the defaults.
 *
 * @param minPartSize  the smallest a part other than the last may be (ENTITY_TOO_SMALL)
 * @param onlyIfAbsent complete only if the key has no object, as {@link PutRequest#onlyIfAbsent}
 * @param ifMatch      complete only over an object with this ETag, as {@link PutRequest#ifMatch}
 * @param attributes   the object's attributes in place of the upload's; null: the upload's
 * @param checksums    the checksums the service computed over the parts, by algorithm
 */
public record CompleteRequest(String bucket, String key, String uploadId, List<CompletedPart> parts, long minPartSize,
                              boolean onlyIfAbsent, String ifMatch, ObjectAttributes attributes,
                              Map<String, String> checksums) {

    public CompleteRequest {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(uploadId, "uploadId");
        Objects.requireNonNull(parts, "parts");
        Objects.requireNonNull(checksums, "checksums");
    }

    /** An unconditional completion that writes the upload's attributes and no checksums. */
    public static CompleteRequest of(String bucket, String key, String uploadId, List<CompletedPart> parts,
                                     long minPartSize) {
        return new CompleteRequest(bucket, key, uploadId, parts, minPartSize, false, null, null, Map.of());
    }

    public CompleteRequest withOnlyIfAbsent(boolean onlyIfAbsent) {
        return new CompleteRequest(bucket, key, uploadId, parts, minPartSize, onlyIfAbsent, ifMatch, attributes, checksums);
    }

    public CompleteRequest withIfMatch(String ifMatch) {
        return new CompleteRequest(bucket, key, uploadId, parts, minPartSize, onlyIfAbsent, ifMatch, attributes, checksums);
    }

    public CompleteRequest withAttributes(ObjectAttributes attributes) {
        return new CompleteRequest(bucket, key, uploadId, parts, minPartSize, onlyIfAbsent, ifMatch, attributes, checksums);
    }

    public CompleteRequest withChecksums(Map<String, String> checksums) {
        return new CompleteRequest(bucket, key, uploadId, parts, minPartSize, onlyIfAbsent, ifMatch, attributes, checksums);
    }

    /** Whether the completion depends on the object it replaces. */
    public boolean conditional() {
        return onlyIfAbsent || ifMatch != null;
    }

    /** Whether it writes anything but the upload's attributes: attributes or checksums of its own. */
    public boolean rewritesAttributes() {
        return attributes != null || !checksums.isEmpty();
    }
}
