package dev.cairn.store;

import java.util.List;

/**
 * A page of ListObjectVersions: versions in (key, newest first) order.
 *
 * @param nextKeyMarker       when truncated, the key (or common prefix) to continue after
 * @param nextVersionIdMarker when truncated after a version, its id; else null
 */
public record VersionPage(List<ObjectVersion> versions, List<String> commonPrefixes, boolean truncated,
                          String nextKeyMarker, String nextVersionIdMarker) {
}
