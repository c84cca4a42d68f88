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
    READ_MODIFY_WRITE,
    /** CopyObject of a chosen object to a scratch key (S3 only). */
    COPY,
    /** DELETE of a scratch key, present or not (S3 only). */
    DELETE,
    /** A one-part multipart upload to a scratch key: create, upload the part, complete (S3 only). */
    MULTIPART;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /**
     * Whether the operation writes or deletes a scratch key ({@code scratch/…}) instead of a
     * dataset key, so it churns content and references without changing what reads verify.
     */
    public boolean usesScratchKey() {
        return this == COPY || this == DELETE || this == MULTIPART;
    }

    /** Whether the operation changes an existing object's content. */
    public boolean overwrites() {
        return this == UPDATE || this == READ_MODIFY_WRITE;
    }
}
