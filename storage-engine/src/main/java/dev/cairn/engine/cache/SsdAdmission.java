package dev.cairn.engine.cache;

/** Which entries offered to the {@link SsdCache} are written to it. */
enum SsdAdmission {
    /** Every entry offered is written. Most device writes; best for a stable hot set. */
    ALWAYS,
    /**
     * An entry is written only when its key was requested ({@link SsdCache#recordAccess}) at
     * least twice within the doorkeeper's window, so that one-off reads never cost a device
     * write. The {@link RowCache} records every read that is not a scan.
     */
    SECOND_ACCESS
}
