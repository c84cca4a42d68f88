package dev.cairn.engine.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HashIndexTest {

    @Test
    void randomOperationsMatchAMap() {
        long seed = Long.getLong("cairn.seed", System.nanoTime());
        System.out.println("HashIndexTest seed " + seed);
        Random random = new Random(seed);
        HashIndex index = new HashIndex();
        Map<Long, HashIndex.Location> oracle = new HashMap<>();
        for (int op = 0; op < 200_000; op++) {
            long hash = 1 + random.nextInt(5000) * 0x9E3779B97F4A7C15L;
            if (hash == 0) {
                hash = 1;
            }
            int choice = random.nextInt(10);
            if (choice < 5) {
                long offset = VirtualOffset.of(1 + random.nextInt(8), random.nextInt(1 << 20));
                int size = 10 + random.nextInt(100);
                HashIndex.Location previous = index.putIf(hash, offset, size, () -> true);
                assertEquals(oracle.put(hash, new HashIndex.Location(offset, size)), previous, "seed " + seed);
            } else if (choice < 8) {
                assertEquals(oracle.remove(hash), index.remove(hash), "seed " + seed);
            } else if (choice < 9) {
                HashIndex.Location now = oracle.get(hash);
                if (now != null) {
                    assertTrue(index.replaceIf(hash, now.virtualOffset(), now.virtualOffset() + 1, 7));
                    oracle.put(hash, new HashIndex.Location(now.virtualOffset() + 1, 7));
                }
            } else if (random.nextInt(200) == 0) {
                int segment = 1 + random.nextInt(8);
                long removed = oracle.values().stream()
                        .filter(l -> VirtualOffset.segment(l.virtualOffset()) == segment).count();
                oracle.values().removeIf(l -> VirtualOffset.segment(l.virtualOffset()) == segment);
                assertEquals(removed, index.removeSegment(segment), "seed " + seed);
            }
            assertEquals(oracle.get(hash), index.get(hash), "seed " + seed);
        }
        assertEquals(oracle.size(), index.size());
        for (Map.Entry<Long, HashIndex.Location> e : oracle.entrySet()) {
            assertEquals(e.getValue(), index.get(e.getKey()), "seed " + seed);
        }
    }

    @Test
    void guardRefusesUnderTheStripeLock() {
        HashIndex index = new HashIndex();
        assertSame(HashIndex.REJECTED, index.putIf(42, 1, 1, () -> false));
        assertNull(index.get(42));
    }

    @Test
    void reportsMemoryPerEntry() {
        HashIndex index = new HashIndex();
        Random random = new Random(7);
        int n = 500_000;
        for (int i = 0; i < n; i++) {
            long h = random.nextLong();
            index.putIf(h == 0 ? 1 : h, VirtualOffset.of(1, i), 100, () -> true);
        }
        double perEntry = (double) index.memoryBytes() / index.size();
        System.out.printf("SSD cache index: %d entries, %.1f bytes per entry%n", index.size(), perEntry);
        assertTrue(perEntry <= 64, "index bytes per entry " + perEntry);
    }
}
