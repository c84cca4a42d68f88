package dev.cairn.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The delimiter roll-up of S3 listings over any ordered key source. After a common prefix it
 * seeks past every key under that prefix instead of walking them, so a page costs one seek per
 * common prefix plus one read per key returned. Stateless; thread-safe.
 */
public final class Listing {

    private Listing() {
    }

    /** Where a seek starts, relative to its key. */
    public enum From {
        /** The key itself and after. */
        AT,
        /** Strictly after the key. */
        AFTER,
        /** After every key that starts with it. */
        PAST_PREFIX
    }

    /** An ordered source of a bucket's rows, limited to keys starting with the listing's prefix. */
    public interface Seeker {
        /** Rows in UTF-8 order from the given point; close what it returns. */
        Cursor seek(String key, From from) throws IOException;
    }

    /** Rows in order. */
    public interface Cursor extends Iterator<ObjectInfo>, AutoCloseable {
        @Override
        void close();
    }

    public static ListPage page(ListQuery q, Seeker seeker) throws IOException {
        String prefix = q.prefix();
        String delimiter = q.delimiter();
        String startAfter = q.startAfter();
        List<ObjectInfo> objects = new ArrayList<>();
        List<String> prefixes = new ArrayList<>();
        String last = null;
        boolean truncated = false;

        Cursor cursor = startAfter != null && Utf8Order.compare(startAfter, prefix) >= 0
                ? seeker.seek(startAfter, From.AFTER)
                : seeker.seek(prefix, From.AT);
        try {
            while (cursor.hasNext()) {
                ObjectInfo o = cursor.next();
                String key = o.key();
                if (!key.startsWith(prefix)) {
                    break;
                }
                String common = null;
                if (delimiter != null) {
                    int at = key.indexOf(delimiter, prefix.length());
                    if (at >= 0) {
                        common = key.substring(0, at + delimiter.length());
                    }
                }
                if (common != null && startAfter != null && Utf8Order.compare(common, startAfter) <= 0) {
                    // The page before ended inside this prefix (or on it): it was already returned.
                    cursor.close();
                    cursor = seeker.seek(common, From.PAST_PREFIX);
                    continue;
                }
                if (objects.size() + prefixes.size() == q.maxKeys()) {
                    truncated = true;
                    break;
                }
                if (common == null) {
                    objects.add(o);
                    last = key;
                } else {
                    prefixes.add(common);
                    last = common;
                    cursor.close();
                    cursor = seeker.seek(common, From.PAST_PREFIX);
                }
            }
        } finally {
            cursor.close();
        }
        return new ListPage(List.copyOf(objects), List.copyOf(prefixes), truncated, last);
    }
}
