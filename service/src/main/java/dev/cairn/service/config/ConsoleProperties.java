package dev.cairn.service.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.util.unit.DataSize;

/** The console's settings, {@code cairn.console.*}; each default is written here once. */
public class ConsoleProperties {
    /** The default of {@code cairn.console.enabled}; a constant so that the condition can name it. */
    public static final boolean DEFAULT_ENABLED = true;

    /** Whether {@code /console} is served. */
    private boolean enabled = DEFAULT_ENABLED;
    /** A session unused for this long is signed out. */
    private Duration sessionIdleTimeout = Duration.ofMinutes(30);
    /** A session is signed out this long after sign-in, used or not. */
    private Duration sessionMaxAge = Duration.ofHours(12);
    /** Memory for thumbnails (they are also kept on disk under {@code <data-dir>/console/thumbnails}). */
    private DataSize thumbnailCacheSize = DataSize.ofMegabytes(32);
    /** Objects larger than this get no thumbnail. */
    private DataSize thumbnailMaxInputSize = DataSize.ofMegabytes(64);
    /** Images with more pixels than this (width × height, as the header declares) get no thumbnail. */
    private long thumbnailMaxPixels = 64_000_000L;
    /** Objects counted per bucket on the buckets page; beyond it the count shows as "at least". */
    private int bucketCountLimit = 10_000;
    /** How often thumbnails of content no object holds any more are removed; 0: never. */
    private Duration thumbnailSweepInterval = Duration.ofHours(1);
    /** The backup job's {@code --metrics-file}, read for the last run and the next one; none: not shown. */
    private Path backupMetricsFile;
    /**
     * The backup job's archive, whose run reports make the history: {@code dir:/path} (or just
     * {@code /path}) or {@code s3://bucket/prefix}; none: not shown.
     */
    private String backupArchive;
    /** The S3 server of an {@code s3://} archive, e.g. {@code http://127.0.0.1:9000} (path-style); none: AWS's regional endpoint. */
    private URI backupArchiveEndpoint;
    /** The region an {@code s3://} archive's requests are signed for. */
    private String backupArchiveRegion = "us-east-1";
    /** A file holding the access key for an {@code s3://} archive; none: {@code AWS_ACCESS_KEY_ID} and the rest from the environment. */
    private Path backupArchiveAccessKeyFile;
    /** A file holding the secret key for an {@code s3://} archive (set with the access key file). */
    private Path backupArchiveSecretKeyFile;
    /** How long one request to an {@code s3://} archive may take, connecting included. */
    private Duration backupArchiveTimeout = Duration.ofSeconds(5);
    /** How long the history read from the archive is shown before it is read again (while someone looks). */
    private Duration backupArchiveRefresh = Duration.ofSeconds(30);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean v) {
        enabled = v;
    }

    public Duration getSessionIdleTimeout() {
        return sessionIdleTimeout;
    }

    public void setSessionIdleTimeout(Duration v) {
        sessionIdleTimeout = v;
    }

    public Duration getSessionMaxAge() {
        return sessionMaxAge;
    }

    public void setSessionMaxAge(Duration v) {
        sessionMaxAge = v;
    }

    public DataSize getThumbnailCacheSize() {
        return thumbnailCacheSize;
    }

    public void setThumbnailCacheSize(DataSize v) {
        thumbnailCacheSize = v;
    }

    public DataSize getThumbnailMaxInputSize() {
        return thumbnailMaxInputSize;
    }

    public void setThumbnailMaxInputSize(DataSize v) {
        thumbnailMaxInputSize = v;
    }

    public long getThumbnailMaxPixels() {
        return thumbnailMaxPixels;
    }

    public void setThumbnailMaxPixels(long v) {
        thumbnailMaxPixels = v;
    }

    public int getBucketCountLimit() {
        return bucketCountLimit;
    }

    public void setBucketCountLimit(int v) {
        bucketCountLimit = v;
    }

    public Duration getThumbnailSweepInterval() {
        return thumbnailSweepInterval;
    }

    public void setThumbnailSweepInterval(Duration v) {
        thumbnailSweepInterval = v;
    }

    public Path getBackupMetricsFile() {
        return backupMetricsFile;
    }

    public void setBackupMetricsFile(Path v) {
        backupMetricsFile = v;
    }

    public String getBackupArchive() {
        return backupArchive;
    }

    public void setBackupArchive(String v) {
        backupArchive = v == null || v.isBlank() ? null : v.trim();
    }

    public URI getBackupArchiveEndpoint() {
        return backupArchiveEndpoint;
    }

    public void setBackupArchiveEndpoint(URI v) {
        backupArchiveEndpoint = v;
    }

    public String getBackupArchiveRegion() {
        return backupArchiveRegion;
    }

    public void setBackupArchiveRegion(String v) {
        backupArchiveRegion = v;
    }

    public Path getBackupArchiveAccessKeyFile() {
        return backupArchiveAccessKeyFile;
    }

    public void setBackupArchiveAccessKeyFile(Path v) {
        backupArchiveAccessKeyFile = v;
    }

    public Path getBackupArchiveSecretKeyFile() {
        return backupArchiveSecretKeyFile;
    }

    public void setBackupArchiveSecretKeyFile(Path v) {
        backupArchiveSecretKeyFile = v;
    }

    public Duration getBackupArchiveTimeout() {
        return backupArchiveTimeout;
    }

    public void setBackupArchiveTimeout(Duration v) {
        backupArchiveTimeout = v;
    }

    public Duration getBackupArchiveRefresh() {
        return backupArchiveRefresh;
    }

    public void setBackupArchiveRefresh(Duration v) {
        backupArchiveRefresh = v;
    }

    /** Checks the settings; called when the console starts. */
    public void validate() {
        require(!sessionIdleTimeout.isNegative() && !sessionIdleTimeout.isZero(),
                "cairn.console.session-idle-timeout must be positive");
        require(!sessionMaxAge.isNegative() && !sessionMaxAge.isZero(), "cairn.console.session-max-age must be positive");
        require(thumbnailCacheSize.toBytes() >= 0, "cairn.console.thumbnail-cache-size must not be negative");
        require(thumbnailMaxInputSize.toBytes() > 0, "cairn.console.thumbnail-max-input-size must be positive");
        require(thumbnailMaxPixels > 0, "cairn.console.thumbnail-max-pixels must be positive");
        require(bucketCountLimit >= 1, "cairn.console.bucket-count-limit must be at least 1");
        require(!thumbnailSweepInterval.isNegative(), "cairn.console.thumbnail-sweep-interval must not be negative");
        require(!backupArchiveTimeout.isNegative() && !backupArchiveTimeout.isZero(),
                "cairn.console.backup-archive-timeout must be positive");
        require(!backupArchiveRefresh.isNegative() && !backupArchiveRefresh.isZero(),
                "cairn.console.backup-archive-refresh must be positive");
        require((backupArchiveAccessKeyFile == null) == (backupArchiveSecretKeyFile == null),
                "give both cairn.console.backup-archive-access-key-file and -secret-key-file, or neither");
        require(backupArchiveRegion != null && !backupArchiveRegion.isBlank(), "cairn.console.backup-archive-region is empty");
        require(backupArchiveEndpoint == null || (("http".equals(backupArchiveEndpoint.getScheme())
                        || "https".equals(backupArchiveEndpoint.getScheme())) && backupArchiveEndpoint.getHost() != null),
                "cairn.console.backup-archive-endpoint must be an http:// or https:// URL, got " + backupArchiveEndpoint);
        if (backupArchive != null) {
            BackupArchiveLocation.parse(backupArchive);
        }
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new InvalidSettingException("invalid setting: " + message);
        }
    }
}
