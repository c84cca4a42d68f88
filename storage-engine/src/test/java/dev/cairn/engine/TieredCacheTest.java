package dev.cairn.engine;

import dev.cairn.engine.internal.CacheCascades;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine's row cache through its public face, for rows kept elsewhere. */
class TieredCacheTest {
    @TempDir
    Path dir;

    @Test
    void aFilledRowIsServedUntilInvalidated() throws IOException {
        try (TieredCache c = TieredCache.open(TieredCacheOptions.builder(dir).memoryBytes(1 << 20).build())) {
            TieredCache.Lookup miss = c.lookup(key(1));
            assertFalse(miss.hit());
            assertTrue(c.fill(key(1), value(1, 0), miss.stamp()));
            assertArrayEquals(value(1, 0), c.lookup(key(1)).value());
            c.invalidate(key(1));
            assertNull(c.lookup(key(1)).value());
            TieredCacheStats s = c.stats();
            assertEquals(1, s.memoryHits());
            assertEquals(2, s.misses());
            assertEquals(1.0 / 3, s.hitRatio(), 1e-9);
        }
    }

    @Test
    void aFillThatLookedUpBeforeAnInvalidationIsRefused() throws IOException {
        try (TieredCache c = TieredCache.open(TieredCacheOptions.builder(dir).memoryBytes(1 << 20).build())) {
            TieredCache.Lookup before = c.lookup(key(7));
            c.invalidate(key(7));
            assertFalse(c.fill(key(7), value(7, 0), before.stamp()), "a stale read refilled the cache");
            assertNull(c.lookup(key(7)).value());
            TieredCache.Lookup after = c.lookup(key(7));
            assertTrue(c.fill(key(7), value(7, 1), after.stamp()));
            assertArrayEquals(value(7, 1), c.lookup(key(7)).value());
        }
    }

    @Test
    void rowsEvictedFromMemoryAreServedFromSsdAndAReopenStartsEmpty() throws Exception {
        TieredCacheOptions options = TieredCacheOptions.builder(dir).memoryBytes(256 << 10)
                .ssdBytes(16 << 20).segmentBytes(1 << 20).build();
        try (TieredCache c = TieredCache.open(options)) {
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 200; i++) {
                    TieredCache.Lookup l = c.lookup(key(i));
                    if (l.hit()) {
                        assertArrayEquals(value(i, 0), l.value());
                    } else {
                        c.fill(key(i), value(i, 0), l.stamp());
                    }
                }
                CacheCascades.await(c);
            }
            TieredCacheStats s = c.stats();
            assertTrue(s.ssdHits() > 0, "no SSD hits: " + s);
            assertTrue(s.ssdEntries() > 0, "nothing on SSD: " + s);
        }
        try (TieredCache c = TieredCache.open(options)) {
            for (int i = 0; i < 200; i++) {
                assertNull(c.lookup(key(i)).value(), "a row from an earlier run survived: " + i);
            }
            assertEquals(0, c.stats().ssdEntries());
        }
    }

    @Test
    void invalidOptionsNameTheOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TieredCacheOptions.builder(dir).ssdBytes(4096).segmentBytes(4096).build());
        assertTrue(e.getMessage().contains("ssdBytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> TieredCacheOptions.builder(dir).memoryBytes(10).build());
        assertTrue(e.getMessage().contains("memoryBytes"), e.getMessage());
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes();
    }

    private static byte[] value(int key, int version) {
        byte[] v = new byte[4000];
        ByteBuffer.wrap(v).putInt(key).putInt(version);
        return v;
    }
}
