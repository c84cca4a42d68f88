package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.cairn.engine.Entry;
import dev.cairn.engine.fs.FileSystem;
import dev.cairn.engine.fs.LocalFileSystem;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SSTableConcurrencyTest {
    private static final int ENTRIES = 5000;
    private static final int THREADS = 4;

    private final FileSystem fs = new LocalFileSystem();

    @TempDir
    Path dir;

    @Test
    void manyThreadsReadOneTableThroughASmallCache() throws Exception {
        Path path = dir.resolve("t.sst");
        write(fs, path, denseEntries(ENTRIES), SSTableOptions.builder().blockBytes(1024).build());
        // A cache far smaller than the table, so that threads race on misses and evictions.
        BlockCache cache = new BlockCache(16 << 10);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (SSTableReader reader = SSTableReader.open(fs, path, 1, cache)) {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                long seed = 1000 + t;
                futures.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 3000; i++) {
                        int n = random.nextInt(ENTRIES);
                        Entry e = reader.seekFirstAtOrAfter(denseKey(n), random.nextBoolean());
                        assertArrayEquals(denseKey(n), e.key(), "seed " + seed);
                        assertArrayEquals(denseValue(n), e.value(), "seed " + seed);
                        if (i % 500 == 0) {
                            TableIterator it = reader.iterator(true);
                            it.seek(denseKey(n));
                            for (int j = n; j < Math.min(ENTRIES, n + 300); j++) {
                                assertArrayEquals(denseValue(j), it.value(), "seed " + seed);
                                it.next();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(cache.usedBytes() <= cache.capacity());
        assertTrue(cache.hits() > 0 && cache.misses() > 0);
    }
}
