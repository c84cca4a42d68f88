package dev.cairn.service.keys;

/** What a request needs to be allowed: the unit a {@link Role} grants. */
public enum Access {
    /** Read objects and listings of a bucket. */
    READ,
    /** Write and delete objects of a bucket, and run multipart uploads into it. */
    WRITE,
    /** Create and delete a bucket, and change its ACL. */
    MANAGE,
    /** Read the actuator's metrics. */
    METRICS,
    /** Take, list and release engine checkpoints ({@code /_admin/checkpoints}). */
    CHECKPOINTS
}
