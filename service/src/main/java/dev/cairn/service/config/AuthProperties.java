package dev.cairn.service.config;

import static dev.cairn.service.config.CairnProperties.require;

import java.nio.file.Path;
import java.time.Duration;

/** Credentials. With none configured, a pair is generated on first start into the data directory. */
public class AuthProperties {
    /** The access key of the one configured pair; needs {@link #secretKey}. */
    private String accessKey;
    /** The secret of {@link #accessKey}. Never logged. */
    private String secretKey;
    /**
     * A properties file of {@code accessKey=secretKey} lines, for several pairs; read at
     * startup. Used together with the single pair when both are set.
     */
    private Path credentialsFile;
    /** Requests whose signing time differs from the server clock by more than this are refused. */
    private Duration maxClockSkew = dev.cairn.service.auth.SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW;
    /**
     * The key file: access keys with roles per bucket (docs/format/keys.md, docs/security.md),
     * read again when it changes. Mode 0600: a file others can read stops the start.
     */
    private Path keysFile;
    /** How often the key file is checked for changes. */
    private Duration keysReloadInterval = Duration.ofSeconds(2);
    /**
     * Accept a key file its group can read: Kubernetes secret volumes of a pod with an
     * {@code fsGroup} are mode 0440 whatever {@code defaultMode} says. Never world-readable.
     */
    private boolean keysFileGroupReadable;
    /**
     * Accept AWS Signature Version 2 (header and presigned URL) beside Version 4, for the clients
     * that still send it (AWS CLI v1 {@code s3 presign}, s3cmd {@code signurl}, older SDKs); false
     * answers it as S3 does where only Version 4 is accepted.
     */
    private boolean signatureV2 = true;

    public boolean isSignatureV2() {
        return signatureV2;
    }

    public void setSignatureV2(boolean signatureV2) {
        this.signatureV2 = signatureV2;
    }

    public Path getKeysFile() {
        return keysFile;
    }

    public void setKeysFile(Path keysFile) {
        this.keysFile = keysFile;
    }

    public Duration getKeysReloadInterval() {
        return keysReloadInterval;
    }

    public void setKeysReloadInterval(Duration keysReloadInterval) {
        this.keysReloadInterval = keysReloadInterval;
    }

    public boolean isKeysFileGroupReadable() {
        return keysFileGroupReadable;
    }

    public void setKeysFileGroupReadable(boolean keysFileGroupReadable) {
        this.keysFileGroupReadable = keysFileGroupReadable;
    }

    public String getAccessKey() {
        return accessKey;
    }

    public void setAccessKey(String accessKey) {
        this.accessKey = accessKey;
    }

    public String getSecretKey() {
        return secretKey;
    }

    public void setSecretKey(String secretKey) {
        this.secretKey = secretKey;
    }

    public Path getCredentialsFile() {
        return credentialsFile;
    }

    public void setCredentialsFile(Path credentialsFile) {
        this.credentialsFile = credentialsFile;
    }

    public Duration getMaxClockSkew() {
        return maxClockSkew;
    }

    public void setMaxClockSkew(Duration maxClockSkew) {
        this.maxClockSkew = maxClockSkew;
    }

    @Override
    public String toString() {
        return "Auth[accessKey=" + accessKey + ", secretKey=" + (secretKey == null ? null : "(hidden)")
                + ", credentialsFile=" + credentialsFile + ", keysFile=" + keysFile + ", signatureV2=" + signatureV2 + "]";
    }

    void validate() {
        require((accessKey == null) == (secretKey == null),
                "cairn.auth.access-key and cairn.auth.secret-key must be set together");
        require(maxClockSkew != null && !maxClockSkew.isNegative(), "cairn.auth.max-clock-skew must not be negative");
    }
}
