package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.CorruptionException;
import dev.cairn.engine.fs.CountingFileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A point lookup's miss reads its aligned run of blocks at once while the block cache has room. */
class SSTablePrefetchTest {
    private static final int ENTRIES = 20_000;

    private final CountingFileSystem fs = new CountingFileSystem(new LocalFileSystem());

    @TempDir
    Path dir;

    private Path path;

    @BeforeEach
    void writeTable() throws IOException {
        path = dir.resolve("t.sst");
        write(fs, path, denseEntries(ENTRIES), SSTableOptions.DEFAULTS);
    }

    @Test
    void aColdLookupCachesItsRunSoItsNeighboursReadNothing() throws IOException {
        BlockCache cache = new BlockCache(64 << 20);
        try (SSTableReader reader = SSTableReader.open(fs, path, 3, cache)) {
            assertTrue(reader.dataBlockCount() > 4 * SSTableReader.PREFETCH_BLOCKS, "blocks: " + reader.dataBlockCount());
            long before = fs.snapshot().readOps();
            int lookups = 0;
            for (int i = 0; i < ENTRIES; i += 7) {
                assertArrayEquals(denseValue(i), reader.seekFirstAtOrAfter(denseKey(i), true).value());
                lookups++;
            }
            long reads = fs.snapshot().readOps() - before;
            long runs = (reader.dataBlockCount() + SSTableReader.PREFETCH_BLOCKS - 1) / SSTableReader.PREFETCH_BLOCKS;
            assertEquals(runs, reads, "one read per run of blocks, for " + lookups + " lookups");
            assertEquals(runs, cache.misses(), "only the lookup that read a run missed");
            before = fs.snapshot().readOps();
            for (int i = 3; i < ENTRIES; i += 11) {
                assertArrayEquals(denseValue(i), reader.seekFirstAtOrAfter(denseKey(i), true).value());
            }
            assertEquals(before, fs.snapshot().readOps(), "every block is cached");
        }
    }

    @Test
    void aFullCacheReadsSingleBlocksAndEvictsNothingToPrefetch() throws IOException {
        BlockCache cache = new BlockCache(3 * 4096);
        try (SSTableReader reader = SSTableReader.open(fs, path, 3, cache)) {
            long before = fs.snapshot().readOps();
            long bytesBefore = fs.snapshot().bytesRead();
            assertArrayEquals(denseValue(5000), reader.seekFirstAtOrAfter(denseKey(5000), true).value());
            assertEquals(before + 1, fs.snapshot().readOps());
            assertTrue(fs.snapshot().bytesRead() - bytesBefore < 2 * 4096 + 64, "one block read, no run");
        }
    }

    @Test
    void aDamagedBlockInTheRunFailsItsOwnLookupsOnly() throws IOException {
        BlockCache cache = new BlockCache(64 << 20);
        long damaged;
        int inDamaged = -1;
        try (SSTableReader reader = SSTableReader.open(fs, path, 3, cache)) {
            damaged = reader.dataBlockHandle(1).offset() + 10;
            for (int i = 0; inDamaged < 0; i++) {
                if (reader.findBlock(denseKey(i)) == 1) {
                    inDamaged = i;
                }
            }
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, damaged);
            one.put(0, (byte) (one.get(0) ^ 0x55)).rewind();
            channel.write(one, damaged);
        }
        try (SSTableReader reader = SSTableReader.open(fs, path, 4, cache)) {
            assertArrayEquals(denseValue(0), reader.seekFirstAtOrAfter(denseKey(0), true).value(),
                    "block 0's run holds damaged block 1; block 0 still reads");
            int key = inDamaged;
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> reader.seekFirstAtOrAfter(denseKey(key), true));
            assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
            assertArrayEquals(denseValue(0), reader.seekFirstAtOrAfter(denseKey(0), true).value());
        }
    }
}
