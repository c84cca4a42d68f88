package dev.cairn.backup.restore;

/** A multipart upload a restore started at its destination and has not completed or aborted yet. */
public record PendingUpload(String bucket, String key, String uploadId) {
}
