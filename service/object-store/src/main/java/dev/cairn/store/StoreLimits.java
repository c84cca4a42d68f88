package dev.cairn.store;

/**
 * Limits a store puts on what it stores, which the HTTP layer checks before it writes.
 *
 * @param maxMetadataNameBytes the longest {@code x-amz-meta-*} header name (the prefix included)
 *                             the store keeps
 */
public record StoreLimits(int maxMetadataNameBytes) {

    /**
     * What every store keeps: an object moves between stores by backup and restore, so each keeps
     * at least what the embedded engine keeps in a column name.
     */
    public static final StoreLimits PORTABLE = new StoreLimits(1024);
}
