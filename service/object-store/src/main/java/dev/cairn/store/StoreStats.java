package dev.cairn.store;

/**
 * Counters since the store was opened.
 *
 * @param logicalBytesWritten  content bytes of every object written (a completed multipart
 *                             upload counts once, its parts not)
 * @param physicalBytesWritten of those, the bytes whose content was new and had to be stored
 */
public record StoreStats(long logicalBytesWritten, long physicalBytesWritten) {

    /** Logical over physical bytes written: 1 without any duplicate, higher with them. */
    public double dedupRatio() {
        return physicalBytesWritten == 0 ? 1.0 : (double) logicalBytesWritten / physicalBytesWritten;
    }
}
