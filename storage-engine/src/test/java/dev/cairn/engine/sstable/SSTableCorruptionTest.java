package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NavigableMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SSTableCorruptionTest {
    private static final int ENTRIES = 300;

    private final FileSystem fs = new LocalFileSystem();
    private final NavigableMap<byte[], byte[]> entries = denseEntries(ENTRIES);

    @TempDir
    Path dir;

    private Path original;
    private byte[] bytes;

    @BeforeEach
    void writeTable() throws IOException {
        original = dir.resolve("original.sst");
        write(fs, original, entries, SSTableOptions.builder().blockBytes(512).build());
        bytes = Files.readAllBytes(original);
    }

    /** One offset inside each region of the file, named. */
    private Map<String, Long> regions() throws IOException {
        Map<String, Long> regions = new LinkedHashMap<>();
        try (SSTableReader reader = SSTableReader.open(fs, original, 1, null)) {
            int last = reader.dataBlockCount() - 1;
            assertTrue(last >= 4);
            for (int block : new int[] {0, last / 2, last}) {
                BlockHandle h = reader.dataBlockHandle(block);
                regions.put("data block " + block + " first byte", h.offset());
                regions.put("data block " + block + " middle", h.offset() + h.size() / 2);
                regions.put("data block " + block + " restart array", h.offset() + h.size() - 5);
                regions.put("data block " + block + " compression type", h.offset() + h.size());
                regions.put("data block " + block + " crc", h.offset() + h.size() + 2);
            }
            Footer f = reader.footer();
            Map<String, BlockHandle> meta = Map.of("filter", f.filter(), "properties", f.properties(), "index", f.index());
            for (Map.Entry<String, BlockHandle> e : meta.entrySet()) {
                BlockHandle h = e.getValue();
                regions.put(e.getKey() + " contents", h.offset() + h.size() / 3);
                regions.put(e.getKey() + " compression type", h.offset() + h.size());
                regions.put(e.getKey() + " crc", h.offset() + h.size() + 4);
            }
            long footer = bytes.length - SSTableFormat.FOOTER_BYTES;
            regions.put("footer index handle", footer + 7);
            regions.put("footer filter handle", footer + 12 + 9);
            regions.put("footer properties handle", footer + 24 + 11);
            regions.put("footer crc", footer + SSTableFormat.FOOTER_CRC_OFFSET + 1);
            regions.put("footer version low byte (to 0)", footer + SSTableFormat.FOOTER_VERSION_OFFSET + 3);
            regions.put("footer magic", footer + SSTableFormat.FOOTER_MAGIC_OFFSET + 5);
        }
        return regions;
    }

    @Test
    void aFlippedBitInEveryRegionIsDetected() throws IOException {
        for (Map.Entry<String, Long> region : regions().entrySet()) {
            long offset = region.getValue();
            Path damaged = copyWithFlip(offset, 0);
            CorruptionException e = assertThrows(CorruptionException.class, () -> readEverything(damaged),
                    region.getKey() + " at " + offset);
            assertTrue(e.getMessage().contains(damaged.toString()), e.getMessage());
        }
    }

    @Test
    void aDamagedDataBlockNamesItsOffsetAndSparesTheOthers() throws IOException {
        long blockOffset;
        int blockIndex;
        try (SSTableReader reader = SSTableReader.open(fs, original, 1, null)) {
            blockIndex = reader.dataBlockCount() / 2;
            blockOffset = reader.dataBlockHandle(blockIndex).offset();
        }
        Path damaged = copyWithFlip(blockOffset + 10, 3);
        try (SSTableReader reader = SSTableReader.open(fs, damaged, 1, new BlockCache(1 << 20))) {
            byte[] inDamaged = reader.separator(blockIndex);
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> reader.seekFirstAtOrAfter(inDamaged, true));
            assertTrue(e.getMessage().contains(damaged.toString()), e.getMessage());
            assertTrue(e.getMessage().contains("offset " + blockOffset), e.getMessage());
            assertArrayEquals(entries.firstKey(), reader.seekFirstAtOrAfter(entries.firstKey(), true).key());
            assertArrayEquals(entries.lastKey(), reader.seekFirstAtOrAfter(entries.lastKey(), true).key());
            TableIterator it = reader.iterator(false);
            assertThrows(CorruptionException.class, () -> {
                for (it.seekToFirst(); it.valid(); it.next()) {
                    // walk into the damaged block
                }
            });
            assertFalse(it.valid(), "an iterator is invalid after an error");
        }
    }

    @Test
    void everySingleBitFlipOfASmallTableIsDetected() throws IOException {
        Path small = dir.resolve("small.sst");
        write(fs, small, denseEntries(40), SSTableOptions.builder().blockBytes(256).restartInterval(4).build());
        bytes = Files.readAllBytes(small);
        long versionOffset = bytes.length - SSTableFormat.FOOTER_BYTES + SSTableFormat.FOOTER_VERSION_OFFSET;
        for (int offset = 0; offset < bytes.length; offset++) {
            Path damaged = copyWithFlip(offset, offset % 8);
            IOException e = assertThrows(IOException.class, () -> readEverything(damaged), "flip at " + offset);
            assertTrue(e.getMessage().contains(damaged.toString()), e.getMessage());
            boolean inVersion = offset >= versionOffset && offset < versionOffset + 4;
            if (!inVersion || e.getMessage().contains("bad format version")) {
                assertInstanceOf(CorruptionException.class, e, "flip at " + offset + ": " + e.getMessage());
            } else {
                assertTrue(e.getMessage().startsWith("unsupported SSTable format version"), e.getMessage());
            }
            Files.delete(damaged);
        }
    }

    @Test
    void aNewerFormatVersionIsUnsupportedNotCorrupt() throws IOException {
        Path newer = dir.resolve("newer.sst");
        ByteBuffer copy = ByteBuffer.wrap(bytes.clone());
        copy.putInt(bytes.length - SSTableFormat.FOOTER_BYTES + SSTableFormat.FOOTER_VERSION_OFFSET, 2);
        Files.write(newer, copy.array());
        IOException e = assertThrows(IOException.class, () -> SSTableReader.open(fs, newer, 1, null));
        assertFalse(e instanceof CorruptionException);
        assertEquals("unsupported SSTable format version 2 in " + newer, e.getMessage());
    }

    @Test
    void aFileThatIsNotAnSSTableHasBadMagic() throws IOException {
        Path other = dir.resolve("other.sst");
        byte[] text = "this is certainly not an sstable, just some text of sufficient length".getBytes();
        Files.write(other, text);
        CorruptionException e = assertThrows(CorruptionException.class, () -> SSTableReader.open(fs, other, 1, null));
        assertTrue(e.getMessage().contains("bad magic"), e.getMessage());
        assertTrue(e.getMessage().contains(other.toString()), e.getMessage());
    }

    @Test
    void truncatedFilesAreCorrupt() throws IOException {
        for (int length : new int[] {0, 10, SSTableFormat.FOOTER_BYTES - 1, bytes.length / 2, bytes.length - 1}) {
            Path cut = dir.resolve("cut-" + length + ".sst");
            Files.write(cut, java.util.Arrays.copyOf(bytes, length));
            CorruptionException e = assertThrows(CorruptionException.class, () -> readEverything(cut),
                    "length " + length);
            assertTrue(e.getMessage().contains(cut.toString()), e.getMessage());
        }
    }

    @Test
    void theDumpVerifiesAndReportsDamage() throws IOException {
        Path damaged = copyWithFlip(100, 1);
        var out = new java.io.ByteArrayOutputStream();
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> SSTableDump.dump(fs, damaged, new java.io.PrintStream(out, true)));
        assertTrue(e.getMessage().contains(damaged.toString()), e.getMessage());
    }

    private Path copyWithFlip(long offset, int bit) throws IOException {
        byte[] copy = bytes.clone();
        copy[(int) offset] ^= (byte) (1 << bit);
        Path damaged = dir.resolve("damaged-" + offset + "-" + bit + ".sst");
        Files.write(damaged, copy);
        return damaged;
    }

    /** Opens the table and reads every block both ways; returns only if nothing is damaged. */
    private void readEverything(Path path) throws IOException {
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, null)) {
            scan(reader, false);
            for (int i = 0; i < reader.dataBlockCount(); i++) {
                reader.seekFirstAtOrAfter(reader.separator(i), false);
            }
        }
    }
}
