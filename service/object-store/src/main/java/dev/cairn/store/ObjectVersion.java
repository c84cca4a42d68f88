package dev.cairn.store;

/**
 * One version of a key: an object version or a delete marker.
 *
 * @param key          the object key
 * @param versionId    its id; {@link VersionId#NULL} for the version written while the bucket was
 *                     unversioned or suspended
 * @param deleteMarker whether it is a delete marker
 * @param lastModified epoch millis of the write
 * @param info         the object of an object version; null for a delete marker
 * @param latest       whether it is the key's current version
 */
public record ObjectVersion(String key, String versionId, boolean deleteMarker, long lastModified, ObjectInfo info,
                           boolean latest) {

    public static ObjectVersion of(ObjectInfo info, boolean latest) {
        String id = info.versionId() == null ? VersionId.NULL : info.versionId();
        return new ObjectVersion(info.key(), id, false, info.lastModified(), info, latest);
    }

    public static ObjectVersion marker(String key, String versionId, long lastModified, boolean latest) {
        return new ObjectVersion(key, versionId, true, lastModified, null, latest);
    }
}
