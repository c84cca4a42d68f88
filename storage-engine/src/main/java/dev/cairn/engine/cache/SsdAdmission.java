package dev.cairn.engine.cache;

/** Which entries offered to the {@link SsdCache} are written to it. */
public enum SsdAdmission {
    /** Every entry offered is written. Most device writes; best for a stable hot set. */
    ALWAYS,
    /**
     * An entry is written only when its key was seen before (offered or missed) within the
     * doorkeeper's window, so that one-off reads never cost a device write.
     */
    SECOND_ACCESS
}
