package dev.cairn.store;

/**
 * One page of a listing. Keys are returned in UTF-8 byte order.
 *
 * @param prefix     only keys starting with it ("" for all)
 * @param delimiter  when non-null and non-empty, keys holding it after the prefix are rolled up
 *                   into one common prefix each (prefix up to and including the delimiter)
 * @param startAfter only keys (and common prefixes) strictly greater than it; null for none
 * @param maxKeys    at most this many keys plus common prefixes; at least 1
 */
public record ListQuery(String prefix, String delimiter, String startAfter, int maxKeys) {
    public ListQuery {
        prefix = prefix == null ? "" : prefix;
        if (delimiter != null && delimiter.isEmpty()) {
            delimiter = null;
        }
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be at least 1, got " + maxKeys);
        }
    }
}
