package dev.cairn.engine.sstable;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class BlockCacheTest {

    @Test
    void countsHitsAndMisses() throws IOException {
        BlockCache cache = new BlockCache(1 << 20);
        Block block = block(1000);
        assertNull(cache.get(1, 0));
        cache.put(1, 0, block);
        assertSame(block, cache.get(1, 0));
        assertSame(block, cache.get(1, 0));
        assertNull(cache.get(1, 1), "offset is part of the key");
        assertNull(cache.get(2, 0), "file number is part of the key");
        assertEquals(2, cache.hits());
        assertEquals(3, cache.misses());
        assertEquals(block.chargeBytes(), cache.usedBytes());
    }

    @Test
    void evictsOnceFullAndKeepsTheBlocksReadOften() throws IOException {
        Block block = block(1000);
        long charge = block.chargeBytes();
        BlockCache cache = new BlockCache(charge * 4);
        for (int i = 0; i < 4; i++) {
            cache.put(1, i, block);
        }
        assertEquals(charge * 4, cache.usedBytes());
        for (int read = 0; read < 5; read++) {
            assertNotNull(cache.get(1, 0), "block 0 is read often");
        }
        for (int i = 4; i < 24; i++) {
            cache.put(1, i, block);
            assertEquals(charge * 4, cache.usedBytes());
        }
        assertEquals(20, cache.evictions());
        assertNotNull(cache.get(1, 0), "a stream of blocks read once does not push out a block read often");
    }

    @Test
    void neverHoldsMoreThanItsCapacity() throws IOException {
        long seed = 77;
        System.out.println("BlockCacheTest seed " + seed);
        Random random = new Random(seed);
        BlockCache cache = new BlockCache(64L << 20);
        List<Block> blocks = new ArrayList<>();
        for (int size : new int[] {100, 4000, 30_000, 200_000}) {
            blocks.add(block(size));
        }
        for (int i = 0; i < 20_000; i++) {
            cache.put(random.nextInt(50), random.nextInt(200), blocks.get(random.nextInt(blocks.size())));
            assertTrue(cache.usedBytes() <= cache.capacity());
        }
        assertTrue(cache.usedBytes() > cache.capacity() / 2, "a full cache is mostly used: " + cache.usedBytes());
        assertTrue(cache.evictions() > 0);
    }

    @Test
    void aBlockLargerThanTheCacheIsNotKept() throws IOException {
        BlockCache cache = new BlockCache(500);
        cache.put(1, 0, block(1000));
        assertNull(cache.get(1, 0));
        assertEquals(0, cache.usedBytes());
    }

    @Test
    void invalidateFileDropsOnlyThatFile() throws IOException {
        BlockCache cache = new BlockCache(8L << 20);
        Block block = block(100);
        for (int file = 1; file <= 3; file++) {
            for (int offset = 0; offset < 100; offset++) {
                cache.put(file, offset * 1000L, block);
            }
        }
        cache.invalidateFile(2);
        assertEquals(200 * block.chargeBytes(), cache.usedBytes());
        for (int offset = 0; offset < 100; offset++) {
            assertNull(cache.get(2, offset * 1000L));
            assertNotNull(cache.get(1, offset * 1000L));
            assertNotNull(cache.get(3, offset * 1000L));
        }
    }

    @Test
    void capacityZeroDisablesTheCache() throws IOException {
        BlockCache cache = new BlockCache(0);
        cache.put(1, 0, block(10));
        assertNull(cache.get(1, 0));
        assertEquals(0, cache.usedBytes());
        assertEquals(1, cache.misses());
        assertThrows(IllegalArgumentException.class, () -> new BlockCache(-1));
    }

    @Test
    void concurrentUseKeepsTheBound() throws Exception {
        BlockCache cache = new BlockCache(2L << 20);
        Block block = block(3000);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    Random random = new Random(thread);
                    for (int i = 0; i < 50_000; i++) {
                        long file = random.nextInt(8);
                        long offset = random.nextInt(2000) * 4096L;
                        Block cached = cache.get(file, offset);
                        if (cached == null) {
                            cache.put(file, offset, block);
                        } else {
                            assertSame(block, cached);
                        }
                        if (i % 10_000 == 0) {
                            cache.invalidateFile(file);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(cache.usedBytes() <= cache.capacity());
        assertEquals(200_000, cache.hits() + cache.misses());
        assertTrue(cache.hits() > 0);
    }

    /** A block of about {@code bytes} bytes: one entry with a value of that size. */
    static Block block(int bytes) throws IOException {
        BlockBuilder builder = new BlockBuilder(16);
        builder.add(SSTableTestSupport.key(1, "k", 1), new byte[bytes]);
        return Block.parse(builder.finish(), 0, "test");
    }
}
