package dev.cairn.backup.restore;

/**
 * An object (or one version of it) a restore with {@code --skip-damaged} left out, and why.
 *
 * @param versionId null for an object of a bucket whose versioning was never configured
 */
public record SkippedObject(String bucket, String key, String versionId, String reason) {
    @Override
    public String toString() {
        return bucket + "/" + key + (versionId == null ? "" : " version " + versionId) + ": " + reason;
    }
}
