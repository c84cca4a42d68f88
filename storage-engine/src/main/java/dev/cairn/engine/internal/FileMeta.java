package dev.cairn.engine.internal;

/**
 * An SSTable as the manifest knows it: its number, size, entry count and internal-key bounds.
 */
record FileMeta(long number, long size, long entries, byte[] smallest, byte[] largest) {

    /** Whether the table's user keys may include any in [{@code start}, {@code end}] (internal keys). */
    boolean overlaps(byte[] startInternal, byte[] endInternal) {
        return !(Keys.userCompare(largest, startInternal) < 0 || Keys.userCompare(smallest, endInternal) > 0);
    }
}
