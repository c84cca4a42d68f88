package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.fs.CountingFileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SSTableReaderCacheTest {
    private static final int ENTRIES = 2000;

    private final CountingFileSystem fs = new CountingFileSystem(new LocalFileSystem());
    private long readsBefore;

    private void resetReads() {
        readsBefore = fs.snapshot().readOps();
    }

    private long reads() {
        return fs.snapshot().readOps() - readsBefore;
    }

    @TempDir
    Path dir;

    private Path path;

    @BeforeEach
    void writeTable() throws IOException {
        path = dir.resolve("t.sst");
        write(fs, path, denseEntries(ENTRIES), SSTableOptions.DEFAULTS);
    }

    @Test
    void aPointLookupReadsOneBlockColdAndNoneWhenCached() throws IOException {
        BlockCache cache = new BlockCache(1 << 20);
        try (SSTableReader reader = SSTableReader.open(fs, path, 3, cache)) {
            assertTrue(reader.properties().dataBlockCount() > 10);
            resetReads();
            assertArrayEquals(denseValue(1234), reader.seekFirstAtOrAfter(denseKey(1234), true).value());
            assertEquals(1, reads(), "one read for the data block");
            assertEquals(1, cache.misses());
            assertArrayEquals(denseValue(1234), reader.seekFirstAtOrAfter(denseKey(1234), true).value());
            assertEquals(1, reads(), "no read once cached");
            assertEquals(1, cache.hits());
            assertFalse(reader.mayContain(InternalKeys.filterKey(key(1, "absent", 1))), "filter in memory");
            assertEquals(1, reads(), "the filter is not read again");
        }
    }

    @Test
    void fillCacheFalseUsesButDoesNotFillTheCache() throws IOException {
        BlockCache cache = new BlockCache(1 << 20);
        try (SSTableReader reader = SSTableReader.open(fs, path, 3, cache)) {
            resetReads();
            reader.seekFirstAtOrAfter(denseKey(10), false);
            reader.seekFirstAtOrAfter(denseKey(10), false);
            assertEquals(2, reads());
            assertEquals(0, cache.usedBytes());

            reader.seekFirstAtOrAfter(denseKey(10), true);
            assertEquals(3, reads());
            TableIterator it = reader.iterator(false);
            it.seek(denseKey(10));
            assertArrayEquals(denseKey(10), it.key());
            assertEquals(3, reads(), "an uncaching scan still uses a cached block");

            long used = cache.usedBytes();
            int scanned = scan(reader, false).size();
            assertEquals(ENTRIES, scanned);
            assertEquals(used, cache.usedBytes(), "a scan with fillCache=false leaves the cache alone");
        }
    }

    @Test
    void fullScanWithFillCachePopulatesItAndInvalidateEmptiesIt() throws IOException {
        BlockCache cache = new BlockCache(8 << 20);
        try (SSTableReader reader = SSTableReader.open(fs, path, 3, cache)) {
            scan(reader, true);
            long blocks = reader.properties().dataBlockCount();
            assertEquals(blocks, cache.misses());
            resetReads();
            scan(reader, true);
            assertEquals(0, reads());
            assertEquals(blocks, cache.hits());
            cache.invalidateFile(3);
            assertEquals(0, cache.usedBytes());
        }
    }

    @Test
    void twoTablesShareACacheWithoutMixingBlocks() throws IOException {
        Path other = dir.resolve("u.sst");
        java.util.NavigableMap<byte[], byte[]> otherEntries = new java.util.TreeMap<>(InternalKeys.COMPARATOR);
        for (int i = 0; i < ENTRIES; i++) {
            otherEntries.put(denseKey(i), ("other-" + i).getBytes());
        }
        write(fs, other, otherEntries, SSTableOptions.DEFAULTS);
        BlockCache cache = new BlockCache(8 << 20);
        try (SSTableReader a = SSTableReader.open(fs, path, 1, cache);
             SSTableReader b = SSTableReader.open(fs, other, 2, cache)) {
            for (int i = 0; i < ENTRIES; i += 97) {
                assertArrayEquals(denseValue(i), a.seekFirstAtOrAfter(denseKey(i), true).value());
                assertArrayEquals(("other-" + i).getBytes(), b.seekFirstAtOrAfter(denseKey(i), true).value());
            }
        }
    }
}
