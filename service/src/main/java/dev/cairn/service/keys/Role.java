package dev.cairn.service.keys;

import java.util.EnumSet;
import java.util.Set;

/** A role a key holds, for one bucket or for all. Names as written in the key file. */
public enum Role {
    ADMIN("admin", true, EnumSet.allOf(Access.class)),
    READ_WRITE("read-write", true, EnumSet.of(Access.READ, Access.WRITE)),
    READ_ONLY("read-only", true, EnumSet.of(Access.READ)),
    WRITE_ONLY("write-only", true, EnumSet.of(Access.WRITE)),
    METRICS("metrics", false, EnumSet.of(Access.METRICS)),
    BACKUP("backup", false, EnumSet.of(Access.CHECKPOINTS));

    private final String fileName;
    private final boolean perBucket;
    private final Set<Access> allowed;

    Role(String fileName, boolean perBucket, Set<Access> allowed) {
        this.fileName = fileName;
        this.perBucket = perBucket;
        this.allowed = allowed;
    }

    /** The role's name in the key file and on the command line. */
    public String fileName() {
        return fileName;
    }

    /** Whether the role may be limited to one bucket; the others only exist for all buckets. */
    public boolean perBucket() {
        return perBucket;
    }

    public boolean allows(Access access) {
        return allowed.contains(access);
    }

    /** Whether the role reaches S3 at all (metrics and backup keys do not). */
    public boolean s3() {
        return allows(Access.READ) || allows(Access.WRITE);
    }

    public static Role ofFileName(String name) {
        for (Role r : values()) {
            if (r.fileName.equals(name)) {
                return r;
            }
        }
        throw new IllegalArgumentException("unknown role '" + name + "' (admin, read-write, read-only, write-only,"
                + " metrics, backup)");
    }
}
