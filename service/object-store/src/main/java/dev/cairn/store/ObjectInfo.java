package dev.cairn.store;

import java.util.Map;
import java.util.TreeMap;

/**
 * One object row: everything known about an object except its bytes, which live once per
 * distinct content under {@code sha256}.
 *
 * @param key            the object key, any UTF-8 string
 * @param sha256         lower-case hex SHA-256 of the content
 * @param size           content length in bytes
 * @param etag           S3 ETag without quotes: hex MD5, or for multipart the MD5 of the part
 *                       MD5s followed by {@code -N}
 * @param lastModified   epoch millis of the write
 * @param partCount      number of parts when written by a multipart upload, else 0
 * @param checksums      checksums the client sent and the service verified, by algorithm name
 *                       (CRC32, CRC32C, SHA1, SHA256) to base64 value
 * @param versionId      the version's id ({@link VersionId}); null for an object of a bucket whose
 *                       versioning was never configured, which S3 names version {@code null}
 */
public record ObjectInfo(
        String key,
        String sha256,
        long size,
        String etag,
        ObjectAttributes attributes,
        long lastModified,
        int partCount,
        Map<String, String> checksums,
        String versionId) {

    public ObjectInfo {
        checksums = checksums == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(checksums));
    }

    /** An object of a bucket whose versioning was never configured. */
    public ObjectInfo(String key, String sha256, long size, String etag, ObjectAttributes attributes,
                      long lastModified, int partCount, Map<String, String> checksums) {
        this(key, sha256, size, etag, attributes, lastModified, partCount, checksums, null);
    }

    public ObjectInfo withVersionId(String newVersionId) {
        return new ObjectInfo(key, sha256, size, etag, attributes, lastModified, partCount, checksums, newVersionId);
    }

    /** The object's own canned ACL (its bucket's may make it readable by anyone too). */
    public BucketAcl acl() {
        return attributes == null ? BucketAcl.PRIVATE : attributes.acl();
    }

    public ObjectInfo withAttributes(ObjectAttributes newAttributes) {
        return new ObjectInfo(key, sha256, size, etag, newAttributes, lastModified, partCount, checksums, versionId);
    }

    public ObjectInfo withKey(String newKey) {
        return new ObjectInfo(newKey, sha256, size, etag, attributes, lastModified, partCount, checksums, versionId);
    }
}
