package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LatestDistributionTest {

    @Test
    void theNewestItemsAreRequestedMostAsTheZipfianLawSays() {
        long seed = 42;
        System.out.println("LatestDistributionTest seed " + seed);
        LatestDistribution latest = new LatestDistribution(10_000);
        SplittableRandom random = new SplittableRandom(seed);
        int draws = 200_000;
        long[] counts = new long[10_000];
        for (int i = 0; i < draws; i++) {
            long item = latest.item(random.nextDouble());
            assertTrue(item >= 0 && item < 10_000, "item " + item);
            counts[(int) item]++;
        }
        assertTrue(counts[9_999] > counts[9_998] && counts[9_998] > counts[9_990], "newest first");
        long top1000 = 0;
        for (int i = 9_000; i < 10_000; i++) {
            top1000 += counts[i];
        }
        // 200,000 draws: the share's standard error is about 0.001.
        assertEquals(latest.shareOfTop(1000), (double) top1000 / draws, 0.01);
        assertEquals(latest.shareOfTop(1), (double) counts[9_999] / draws, 0.01);
    }

    @Test
    void sharesAreCumulative() {
        LatestDistribution latest = new LatestDistribution(1000);
        assertEquals(1.0, latest.shareOfTop(1000), 1e-12);
        assertEquals(1.0, latest.shareOfTop(5000), 1e-12);
        assertTrue(latest.shareOfTop(10) < latest.shareOfTop(100));
        assertEquals(0, latest.item(0.999_999_999));
        assertEquals(999, latest.item(0));
    }

    @Test
    void badParametersAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LatestDistribution(1));
        assertThrows(IllegalArgumentException.class, () -> new LatestDistribution(10, 1.0));
    }
}
