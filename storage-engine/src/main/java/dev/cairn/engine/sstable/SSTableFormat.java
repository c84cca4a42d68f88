package dev.cairn.engine.sstable;

/**
 * Constants of the SSTable file format, documented byte by byte in docs/format/sstable.md.
 * DO NOT CHANGE any value here: embedded in on-disk data.
 */
final class SSTableFormat {
    private SSTableFormat() {
    }

    /** "CAIRNSST" as 8 ASCII bytes, big-endian. */
    static final long MAGIC = 0x434149524E535354L;
    static final int VERSION = 1;

    /** Compression type byte of a block trailer: the block is stored as is. */
    static final byte COMPRESSION_NONE = 0;
    /** compression type u8 + crc32c u32. */
    static final int BLOCK_TRAILER_BYTES = 5;

    /** Three handles of (offset u64, size u32), footer crc32c u32, version u32, magic u64. */
    static final int HANDLE_BYTES = 12;
    static final int FOOTER_BYTES = 3 * HANDLE_BYTES + 4 + 4 + 8;
    static final int FOOTER_CRC_OFFSET = 3 * HANDLE_BYTES;
    static final int FOOTER_VERSION_OFFSET = FOOTER_CRC_OFFSET + 4;
    static final int FOOTER_MAGIC_OFFSET = FOOTER_VERSION_OFFSET + 4;

    /** Property tags of the properties block. */
    static final int PROP_ENTRY_COUNT = 1;
    static final int PROP_DELETION_COUNT = 2;
    static final int PROP_VALUE_POINTER_COUNT = 3;
    static final int PROP_SMALLEST_KEY = 4;
    static final int PROP_LARGEST_KEY = 5;
    static final int PROP_SMALLEST_SEQUENCE = 6;
    static final int PROP_LARGEST_SEQUENCE = 7;
    static final int PROP_RAW_KEY_BYTES = 8;
    static final int PROP_RAW_VALUE_BYTES = 9;
    static final int PROP_DATA_BLOCK_COUNT = 10;
    static final int PROP_DATA_BYTES = 11;
    static final int PROP_FILTER_KEY_COUNT = 12;
    static final int PROP_CREATION_TIME_MILLIS = 13;
}
