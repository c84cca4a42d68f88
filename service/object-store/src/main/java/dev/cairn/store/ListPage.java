package dev.cairn.store;

import java.util.List;

/**
 * A page of a listing.
 *
 * @param objects        the keys of the page, in order
 * @param commonPrefixes the rolled-up prefixes of the page, in order
 * @param truncated      whether more keys or prefixes follow
 * @param lastReturned   the greatest key or common prefix of the page; pass it as the next
 *                       {@link ListQuery#startAfter()} to continue. Null on an empty page.
 */
public record ListPage(List<ObjectInfo> objects, List<String> commonPrefixes, boolean truncated, String lastReturned) {
}
