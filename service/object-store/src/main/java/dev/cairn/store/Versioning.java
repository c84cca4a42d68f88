package dev.cairn.store;

/**
 * A bucket's versioning state, as S3 has it: never configured, Enabled, or Suspended. The codes
 * are stored (docs/format/versions.md, "Bucket row"); DO NOT CHANGE them.
 */
public enum Versioning {
    /** Never configured: every write replaces the key's one version, {@code null}. */
    UNVERSIONED(0, null),
    /** Every write adds a version; a delete adds a delete marker. */
    ENABLED(1, "Enabled"),
    /** Writes and deletes replace the version {@code null}; other versions stay. */
    SUSPENDED(2, "Suspended");

    private final int code;
    private final String status;

    Versioning(int code, String status) {
        this.code = code;
        this.status = status;
    }

    public int code() {
        return code;
    }

    /** The {@code Status} S3 names it by; null for never configured. */
    public String status() {
        return status;
    }

    public static Versioning ofCode(int code) {
        for (Versioning v : values()) {
            if (v.code == code) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown versioning code " + code);
    }

    /** Enabled or Suspended for their S3 status; null for anything else. */
    public static Versioning ofStatus(String status) {
        if ("Enabled".equals(status)) {
            return ENABLED;
        }
        if ("Suspended".equals(status)) {
            return SUSPENDED;
        }
        return null;
    }
}
