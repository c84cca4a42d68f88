package dev.cairn.backup.restore;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The blobs a restore found damaged in the archive — missing, or not the bytes their hash names
 * — each with the first reason found. Thread-safe.
 */
final class DamagedBlobs {
    private final Map<String, String> reasons = new ConcurrentHashMap<>();

    void add(String sha256, String reason) {
        reasons.putIfAbsent(sha256, reason);
    }

    /** Why the blob is damaged, or null when it was not found so. */
    String reason(String sha256) {
        return reasons.get(sha256);
    }
}
