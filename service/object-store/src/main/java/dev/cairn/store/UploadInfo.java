package dev.cairn.store;

/** A multipart upload in progress. */
public record UploadInfo(String bucket, String key, String uploadId, ObjectAttributes attributes, long initiatedMillis) {
}
