package dev.cairn.service.store;

/**
 * Counters since the store was opened.
 *
 * @param logicalBytesWritten  content bytes of every object and part written
 * @param physicalBytesWritten content bytes that were new and had to be stored
 */
public record StoreStats(long logicalBytesWritten, long physicalBytesWritten) {

    /** Logical over physical bytes written: 1 without any duplicate, higher with them. */
    public double dedupRatio() {
        return physicalBytesWritten == 0 ? 1.0 : (double) logicalBytesWritten / physicalBytesWritten;
    }
}
