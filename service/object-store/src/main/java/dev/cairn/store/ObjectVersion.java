package dev.cairn.store;

import java.util.Arrays;

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

    /**
     * Refuses to restore this version at place {@code sort} (null: the {@code null} version, no
     * place of its own) with {@code source} as its content, when they do not belong together.
     */
    public void checkRestorable(byte[] sort, ContentSource source) {
        if (sort != null && sort.length != VersionId.SORT_BYTES) {
            throw new IllegalArgumentException(key() + ": a place of " + sort.length + " bytes is not a sort id of"
                    + " this store (" + VersionId.SORT_BYTES + " bytes)");
        }
        boolean isNull = versionId() == null || VersionId.NULL.equals(versionId());
        if (sort == null ? !isNull || deleteMarker() : !isNull && !Arrays.equals(VersionId.decode(versionId()), sort)) {
            throw new IllegalArgumentException(key() + ": version " + versionId()
                    + " does not match its place (a delete marker or a version id other than null needs its own sort id)");
        }
        if (!deleteMarker() && (source == null || !source.sha256().equals(info().sha256())
                || source.size() != info().size())) {
            throw new IllegalArgumentException(key() + ": the content given is not the version's");
        }
    }
}
