package dev.cairn.store;

/**
 * One page of ListObjectVersions.
 *
 * @param prefix          only keys starting with it ("" for all)
 * @param delimiter       as {@link ListQuery#delimiter()}; null or empty for none
 * @param keyMarker       start after this key's versions (with {@code versionIdMarker}: after that
 *                        version of it); null for none
 * @param versionIdMarker the version of {@code keyMarker} to start after; null for none
 * @param maxKeys         at most this many versions, delete markers and common prefixes; at least 1
 */
public record VersionQuery(String prefix, String delimiter, String keyMarker, String versionIdMarker, int maxKeys) {
    public VersionQuery {
        prefix = prefix == null ? "" : prefix;
        if (delimiter != null && delimiter.isEmpty()) {
            delimiter = null;
        }
        if (keyMarker != null && keyMarker.isEmpty()) {
            keyMarker = null;
        }
        if (versionIdMarker != null && (versionIdMarker.isEmpty() || keyMarker == null)) {
            versionIdMarker = null;
        }
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be at least 1, got " + maxKeys);
        }
    }
}
