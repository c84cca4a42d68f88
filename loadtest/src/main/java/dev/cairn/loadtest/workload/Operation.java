package dev.cairn.loadtest.workload;

import java.util.Locale;

/** What one operation of a run does to the target. Thread-safety: immutable. */
public enum Operation {
    /** GET one object. */
    READ,
    /** PUT a new version of an existing object. */
    UPDATE,
    /** PUT a new object under a new key (registered in the key registry). */
    INSERT,
    /** List one short page of keys from a chosen key on (ListObjectsV2 with start-after). */
    SCAN,
    /** GET an object, then PUT a new version of it; timed as one operation. */
    READ_MODIFY_WRITE;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the operation changes an existing object's content. */
    public boolean overwrites() {
        return this == UPDATE || this == READ_MODIFY_WRITE;
    }
}
