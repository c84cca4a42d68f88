package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableFormat.BLOCK_TRAILER_BYTES;
import static dev.cairn.engine.sstable.SSTableFormat.COMPRESSION_NONE;
import static dev.cairn.engine.sstable.SSTableFormat.FOOTER_BYTES;
import static dev.cairn.engine.sstable.SSTableFormat.FOOTER_CRC_OFFSET;
import static dev.cairn.engine.sstable.SSTableFormat.FOOTER_MAGIC_OFFSET;
import static dev.cairn.engine.sstable.SSTableFormat.FOOTER_VERSION_OFFSET;
import static dev.cairn.engine.sstable.SSTableFormat.MAGIC;
import static dev.cairn.engine.sstable.SSTableFormat.VERSION;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fuzz.EngineImage;
import dev.cairn.engine.util.Checksums;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The SSTable past its checksums: the harness gives the fuzzed file a valid footer (magic,
 * version, CRC) and a valid trailer (compression type, CRC32C) on every block the footer and the
 * index point at, so that the block, index, filter and properties decoders see any contents a
 * damaged or hostile table could hold. Such a table may hold any data, so only this must hold:
 * the engine opens and reads, or refuses with an IOException; never another exception, and
 * never an allocation larger than the file.
 */
class SSTableBlocksFuzzTest {
    private static final Path FILE = EngineImage.get().file(name -> name.endsWith(".sst"));

    @FuzzTest(maxDuration = "10s")
    void checksummedBlocks(byte[] input) throws IOException {
        EngineImage image = EngineImage.get();
        image.openAndReadAll(image.withFile(FILE, withValidChecksums(input)), FILE, false);
    }

    static byte[] withValidChecksums(byte[] input) {
        byte[] b = input.clone();
        if (b.length < FOOTER_BYTES) {
            return b;
        }
        int footer = b.length - FOOTER_BYTES;
        ByteBuffer f = ByteBuffer.wrap(b, footer, FOOTER_BYTES).slice();
        f.putInt(FOOTER_VERSION_OFFSET, VERSION);
        f.putLong(FOOTER_MAGIC_OFFSET, MAGIC);
        f.putInt(FOOTER_CRC_OFFSET, Checksums.crc32c(b, footer, FOOTER_CRC_OFFSET));
        BlockHandle index = BlockHandle.readFixed(f);
        BlockHandle filter = BlockHandle.readFixed(f);
        BlockHandle properties = BlockHandle.readFixed(f);
        for (BlockHandle h : new BlockHandle[] {index, filter, properties}) {
            fixTrailer(b, h, footer);
        }
        if (fits(index, footer)) {
            byte[] contents = java.util.Arrays.copyOfRange(b, (int) index.offset(), (int) index.offset() + index.size());
            try {
                Block.Cursor cursor = Block.parse(contents, index.offset(), "fuzz").cursor("fuzz");
                for (cursor.seekToFirst(); cursor.valid(); cursor.next()) {
                    fixTrailer(b, BlockHandle.readVarints(ByteBuffer.wrap(cursor.value())), footer);
                }
            } catch (CorruptionException | IllegalArgumentException | BufferUnderflowException notAnIndex) {
                // The open refuses this index too; the blocks fixed so far stay fixed.
            }
        }
        return b;
    }

    private static boolean fits(BlockHandle h, int footer) {
        return h.offset() >= 0 && h.size() >= 0 && h.offset() + h.size() + BLOCK_TRAILER_BYTES <= footer;
    }

    private static void fixTrailer(byte[] b, BlockHandle h, int footer) {
        if (!fits(h, footer)) {
            return;
        }
        int end = (int) h.offset() + h.size();
        b[end] = COMPRESSION_NONE;
        ByteBuffer.wrap(b).putInt(end + 1, Checksums.crc32c(b, (int) h.offset(), h.size() + 1));
    }

    /** Writes the image's table as a seed: {@code SSTableBlocksFuzzTest <resources dir>}. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]).resolve("dev/cairn/engine/sstable/SSTableBlocksFuzzTestInputs/checksummedBlocks");
        Files.createDirectories(dir);
        Files.write(dir.resolve("written-by-the-engine"), EngineImage.get().bytes(FILE));
    }
}
