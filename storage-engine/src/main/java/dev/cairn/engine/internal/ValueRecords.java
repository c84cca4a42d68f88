package dev.cairn.engine.internal;

import dev.cairn.engine.sstable.InternalKeys;
import dev.cairn.engine.vlog.ValuePointer;

/** Sizes of value file records, for garbage accounting. */
final class ValueRecords {
    /** crc32c, key length and value length: see docs/format/value-file.md. */
    static final int RECORD_HEADER_BYTES = 12;

    private ValueRecords() {
    }

    /** Bytes of the record a pointer found under {@code internalKey} refers to. */
    static long recordBytes(byte[] internalKey, ValuePointer pointer) {
        return RECORD_HEADER_BYTES + (internalKey.length - InternalKeys.TRAILER_BYTES) + (long) pointer.length();
    }
}
