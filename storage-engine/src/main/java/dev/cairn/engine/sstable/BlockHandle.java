package dev.cairn.engine.sstable;

import dev.cairn.engine.util.Varint;
import java.nio.ByteBuffer;

/**
 * Where a block lives in its file: the offset of its first byte and the size of its contents,
 * not counting the {@value SSTableFormat#BLOCK_TRAILER_BYTES}-byte trailer. Immutable.
 */
record BlockHandle(long offset, int size) {

    static final int MAX_VARINT_BYTES = 10 + 5;

    void writeVarints(ByteBuffer out) {
        Varint.putLong(out, offset);
        Varint.putLong(out, size);
    }

    byte[] toVarints() {
        ByteBuffer out = ByteBuffer.allocate(Varint.size(offset) + Varint.size(size));
        writeVarints(out);
        return out.array();
    }

    static BlockHandle readVarints(ByteBuffer in) {
        return new BlockHandle(Varint.getLong(in), Varint.getInt(in));
    }

    void writeFixed(ByteBuffer out) {
        out.putLong(offset);
        out.putInt(size);
    }

    static BlockHandle readFixed(ByteBuffer in) {
        return new BlockHandle(in.getLong(), in.getInt());
    }

    /** Offset just past the block's trailer. */
    long end() {
        return offset + size + SSTableFormat.BLOCK_TRAILER_BYTES;
    }

    @Override
    public String toString() {
        return "[offset " + offset + ", size " + size + "]";
    }
}
