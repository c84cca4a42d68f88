package dev.cairn.engine.cache;

/** A 64-bit address in the logical cache file: segment number (high 32 bits), offset (low 32). */
final class VirtualOffset {
    private VirtualOffset() {
    }

    static long of(int segment, long offset) {
        return ((long) segment << 32) | (offset & 0xFFFF_FFFFL);
    }

    static int segment(long virtualOffset) {
        return (int) (virtualOffset >>> 32);
    }

    static long offset(long virtualOffset) {
        return virtualOffset & 0xFFFF_FFFFL;
    }
}
