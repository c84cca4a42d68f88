package dev.cairn.store;

/** One uploaded part: its number (1..10000), content digest, size, hex MD5 ETag and upload time. */
public record PartInfo(int partNumber, String sha256, long size, String etag, long lastModified) {
}
