package dev.cairn.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * ListObjectVersions over any source of a bucket's versions in (key in UTF-8 order, newest
 * first) order: prefix, delimiter roll-up (seeking past each common prefix), key and version
 * markers, max-keys. Stateless; thread-safe.
 */
public final class VersionListing {

    private VersionListing() {
    }

    /** An ordered source of a bucket's versions. */
    public interface Seeker {
        /** Versions from the given key position on; close what it returns. */
        Cursor seek(String key, Listing.From from) throws IOException;
    }

    /** Versions in order. */
    public interface Cursor extends Iterator<ObjectVersion>, AutoCloseable {
        @Override
        void close();
    }

    public static VersionPage page(VersionQuery q, Seeker seeker) throws IOException {
        String prefix = q.prefix();
        String delimiter = q.delimiter();
        String keyMarker = q.keyMarker();
        String versionMarker = q.versionIdMarker();
        List<ObjectVersion> versions = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String nextKey = null;
        String nextVersion = null;
        boolean truncated = false;
        boolean skipping = versionMarker != null;

        Cursor cursor;
        if (keyMarker == null || Utf8Order.compare(keyMarker, prefix) < 0) {
            skipping = false;
            cursor = seeker.seek(prefix, Listing.From.AT);
        } else if (versionMarker != null) {
            cursor = seeker.seek(keyMarker, Listing.From.AT);
        } else if (delimiter != null && isCommonPrefix(keyMarker, prefix, delimiter)) {
            cursor = seeker.seek(keyMarker, Listing.From.PAST_PREFIX);
        } else {
            cursor = seeker.seek(keyMarker, Listing.From.AFTER);
        }
        try {
            scan:
            while (cursor.hasNext()) {
                ObjectVersion v = cursor.next();
                String key = v.key();
                if (!key.startsWith(prefix)) {
                    break;
                }
                if (skipping) {
                    if (key.equals(keyMarker)) {
                        skipping = !v.versionId().equals(versionMarker);
                        continue;
                    }
                    skipping = false;
                }
                if (delimiter != null) {
                    int at = key.indexOf(delimiter, prefix.length());
                    if (at >= 0) {
                        String common = key.substring(0, at + delimiter.length());
                        if (versions.size() + prefixes.size() == q.maxKeys()) {
                            truncated = true;
                            break;
                        }
                        prefixes.add(common);
                        nextKey = common;
                        nextVersion = null;
                        cursor.close();
                        cursor = seeker.seek(common, Listing.From.PAST_PREFIX);
                        continue scan;
                    }
                }
                if (versions.size() + prefixes.size() == q.maxKeys()) {
                    truncated = true;
                    break;
                }
                versions.add(v);
                nextKey = key;
                nextVersion = v.versionId();
            }
        } finally {
            cursor.close();
        }
        return truncated
                ? new VersionPage(versions, prefixes, true, nextKey, nextVersion)
                : new VersionPage(versions, prefixes, false, null, null);
    }

    private static boolean isCommonPrefix(String marker, String prefix, String delimiter) {
        if (!marker.startsWith(prefix) || !marker.endsWith(delimiter)) {
            return false;
        }
        return marker.indexOf(delimiter, prefix.length()) == marker.length() - delimiter.length();
    }

    /** Every current object of a store without versions, as version {@code null}. */
    public static VersionPage ofCurrentObjects(ObjectStore store, String bucket, VersionQuery q) throws IOException {
        String after = q.keyMarker();
        ListPage page = store.listObjects(bucket, new ListQuery(q.prefix(), q.delimiter(), after, q.maxKeys()));
        List<ObjectVersion> versions = new ArrayList<>();
        for (ObjectInfo o : page.objects()) {
            versions.add(ObjectVersion.of(o, true));
        }
        String nextVersion = null;
        if (page.truncated() && !page.objects().isEmpty()
                && page.objects().get(page.objects().size() - 1).key().equals(page.lastReturned())) {
            nextVersion = VersionId.NULL;
        }
        return new VersionPage(versions, page.commonPrefixes(), page.truncated(),
                page.truncated() ? page.lastReturned() : null, nextVersion);
    }
}
