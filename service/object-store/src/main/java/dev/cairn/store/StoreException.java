package dev.cairn.store;

import java.io.IOException;

/** A request a store refuses for a reason the caller can act on; nothing was changed. */
public final class StoreException extends IOException {

    /** Why. The HTTP layer maps each to an S3 error code. */
    public enum Reason {
        NO_SUCH_BUCKET,
        BUCKET_EXISTS,
        BUCKET_NOT_EMPTY,
        NO_SUCH_KEY,
        NO_SUCH_UPLOAD,
        PRECONDITION_FAILED,
        INVALID_PART,
        INVALID_PART_ORDER,
        ENTITY_TOO_SMALL,
        /** The content a copy named was reclaimed meanwhile. */
        CONTENT_GONE,
        /** Another conditional write of the key held it longer than this one could wait. */
        CONDITIONAL_CONFLICT,
        /** Stored data failed its check on read; the store cannot answer until it is repaired. */
        DATA_CORRUPTED,
        /** The store's disk is full: writes are refused until space is freed; reads go on. */
        INSUFFICIENT_STORAGE
    }

    private final Reason reason;

    public StoreException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public StoreException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
