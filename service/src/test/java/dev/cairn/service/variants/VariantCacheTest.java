package dev.cairn.service.variants;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VariantCacheTest {
    @TempDir
    Path dir;

    private static final String SOURCE = "a".repeat(64);

    private static String key(int i) {
        return VariantService.key("0".repeat(64), "w=" + i);
    }

    @Test
    void variantsSurviveARestartAndTheBudgetEvictsTheLeastRecentlyUsed() throws Exception {
        VariantCache cache = new VariantCache(dir, 250, 0);
        cache.put(SOURCE, key(1), OutputFormat.WEBP, new byte[100]);
        cache.put(SOURCE, key(2), OutputFormat.PNG, new byte[100]);
        assertNotNull(cache.get(key(1)));
        cache.put(SOURCE, key(3), OutputFormat.JPG, new byte[100]);
        assertNull(cache.get(key(2)), "the least recently used went");
        assertEquals(200, cache.bytes());
        Files.writeString(dir.resolve(key(9) + ".tmp-1"), "an interrupted write");
        Files.writeString(dir.resolve(key(8) + ".webp"), "a name of no variant");

        VariantCache reopened = new VariantCache(dir, 250, 0);
        assertEquals(2, reopened.count());
        assertEquals(OutputFormat.WEBP, reopened.get(key(1)).format());
        assertArrayEquals(new byte[100], reopened.get(key(3)).bytes());
        assertEquals(2, Files.list(dir).count(), "the temporary file is gone");
    }

    @Test
    void theMostUsedAreAlsoInMemory() throws Exception {
        VariantCache cache = new VariantCache(dir, 1000, 1 << 20);
        assertNull(cache.inMemory(key(1)));
        cache.put(SOURCE, key(1), OutputFormat.AVIF, new byte[10]);
        Files.delete(dir.resolve(SOURCE + "-" + key(1) + ".avif"));
        assertEquals(OutputFormat.AVIF, cache.inMemory(key(1)).format());
        assertNotNull(cache.get(key(1)), "answered from memory, the file not read");
        assertNull(new VariantCache(dir, 1000, 1 << 20).inMemory(key(1)), "memory starts empty");
    }

    @Test
    void theVariantsOfContentNoLongerHeldAreSwept() throws Exception {
        VariantCache cache = new VariantCache(dir, 1000, 1 << 20);
        String gone = "b".repeat(64);
        cache.put(SOURCE, key(1), OutputFormat.WEBP, new byte[10]);
        cache.put(gone, key(2), OutputFormat.WEBP, new byte[10]);
        cache.put(gone, key(3), OutputFormat.PNG, new byte[10]);
        assertEquals(2, cache.sweep(sha -> !sha.equals(gone)));
        assertNull(cache.get(key(2)));
        assertNull(cache.inMemory(key(3)));
        assertNotNull(cache.get(key(1)));
        assertEquals(10, cache.bytes());
        assertEquals(1, Files.list(dir).count());
    }

    @Test
    void aZeroBudgetKeepsNothing() throws Exception {
        VariantCache cache = new VariantCache(dir, 0, 0);
        cache.put(SOURCE, key(1), OutputFormat.WEBP, new byte[10]);
        assertNull(cache.get(key(1)));
    }

    @Test
    void concurrentCallersOfOneKeyRunItsWorkOnce() throws Exception {
        SingleFlight<String> flights = new SingleFlight<>();
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            Future<String> first = pool.submit(() -> flights.run("k", () -> {
                runs.incrementAndGet();
                started.countDown();
                release.await();
                return "rendered";
            }));
            started.await();
            Future<?>[] others = new Future<?>[7];
            for (int i = 0; i < others.length; i++) {
                others[i] = pool.submit(() -> flights.run("k", () -> {
                    runs.incrementAndGet();
                    return "again";
                }));
            }
            // Callers that arrive after the first finished run anew; hold it until all are waiting.
            while (pool instanceof java.util.concurrent.ThreadPoolExecutor t && t.getActiveCount() < 8) {
                Thread.sleep(5);
            }
            Thread.sleep(50);
            release.countDown();
            assertEquals("rendered", first.get(10, TimeUnit.SECONDS));
            for (Future<?> f : others) {
                assertEquals("rendered", f.get(10, TimeUnit.SECONDS));
            }
            assertEquals(1, runs.get());
            assertEquals(0, flights.inFlight());
        } finally {
            pool.shutdownNow();
        }
    }
}
