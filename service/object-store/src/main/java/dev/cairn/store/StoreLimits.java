package dev.cairn.store;

/**
 * Limits a store puts on what it stores, which the HTTP layer checks before it writes.
 *
 * @param maxMetadataNameBytes the longest {@code x-amz-meta-*} header name (the prefix included)
 *                             the store keeps
 */
public record StoreLimits(int maxMetadataNameBytes) {

    /** A store that puts no limit of its own on these. */
    public static final StoreLimits NONE = new StoreLimits(Integer.MAX_VALUE);
}
