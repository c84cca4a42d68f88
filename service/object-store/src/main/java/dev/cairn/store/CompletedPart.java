package dev.cairn.store;

/** A part as named by a CompleteMultipartUpload request: number and ETag (quotes optional). */
public record CompletedPart(int partNumber, String etag) {
}
