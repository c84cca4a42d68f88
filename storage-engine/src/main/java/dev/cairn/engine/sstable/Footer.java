package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableFormat.*;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.util.Checksums;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The last {@value SSTableFormat#FOOTER_BYTES} bytes of a table: the handles of the index, filter
 * and properties blocks as {@code offset u64 | size u32}, a crc32c u32 of those 36 bytes, the
 * format version u32 and the magic u64, all big-endian. Immutable.
 */
record Footer(BlockHandle index, BlockHandle filter, BlockHandle properties) {

    byte[] encode() {
        ByteBuffer out = ByteBuffer.allocate(FOOTER_BYTES);
        index.writeFixed(out);
        filter.writeFixed(out);
        properties.writeFixed(out);
        out.putInt(Checksums.crc32c(out.array(), 0, FOOTER_CRC_OFFSET));
        out.putInt(VERSION);
        out.putLong(MAGIC);
        return out.array();
    }

    /**
     * Decodes and checks a footer read from the end of a file of {@code fileSize} bytes.
     *
     * @throws CorruptionException if the magic, checksum or a handle is wrong
     * @throws IOException         if the version is newer than this code reads
     */
    static Footer decode(byte[] bytes, long fileSize, String fileName) throws IOException {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        long footerOffset = fileSize - FOOTER_BYTES;
        long magic = in.getLong(FOOTER_MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw new CorruptionException("corrupt SSTable " + fileName + ": bad magic 0x" + Long.toHexString(magic)
                    + " in footer at offset " + footerOffset + " (not an SSTable?)");
        }
        int version = in.getInt(FOOTER_VERSION_OFFSET);
        if (version < 1) {
            throw new CorruptionException("corrupt SSTable " + fileName + ": bad format version " + version
                    + " in footer at offset " + footerOffset);
        }
        if (version > VERSION) {
            throw new IOException("unsupported SSTable format version " + Integer.toUnsignedString(version)
                    + " in " + fileName);
        }
        int crc = in.getInt(FOOTER_CRC_OFFSET);
        if (crc != Checksums.crc32c(bytes, 0, FOOTER_CRC_OFFSET)) {
            throw new CorruptionException("corrupt SSTable " + fileName + ": footer checksum mismatch at offset "
                    + footerOffset);
        }
        Footer footer = new Footer(BlockHandle.readFixed(in), BlockHandle.readFixed(in), BlockHandle.readFixed(in));
        for (BlockHandle h : new BlockHandle[] {footer.index, footer.filter, footer.properties}) {
            if (h.offset() < 0 || h.size() < 0 || h.end() > footerOffset) {
                throw new CorruptionException("corrupt SSTable " + fileName + ": block handle " + h
                        + " outside the file in footer at offset " + footerOffset);
            }
        }
        return footer;
    }
}
