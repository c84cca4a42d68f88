package dev.cairn.loadtest.dataset;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.loadtest.bench.ImageSizeDistribution;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DatasetTest {

    private static DatasetSpec spec(long count, double duplicates) {
        return new DatasetSpec("t", 99, count, 20 << 10, 50 << 10, 1 << 10, 1 << 20, 0, duplicates);
    }

    @Test
    void keysLookLikeAPortalsImageTree() {
        Dataset d = new Dataset(spec(10_000, 0));
        assertTrue(d.key(0).matches("img/00000/[a-z2-7]{26}\\.jpg"), d.key(0));
        assertTrue(d.key(1599).startsWith("img/00000/"));
        assertTrue(d.key(1600).startsWith("img/00001/"));
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            keys.add(d.key(i));
        }
        assertEquals(10_000, keys.size());
    }

    @Test
    void contentIsAFunctionOfSeedIndexAndVersion() {
        Dataset a = new Dataset(spec(100, 0));
        Dataset b = new Dataset(spec(100, 0));
        assertArrayEquals(a.value(5, 0), b.value(5, 0));
        assertFalse(Arrays.equals(a.value(5, 0), a.value(5, 1)));
        assertTrue(a.isLoadValue(a.value(5, 0), 5));
        assertFalse(a.isLoadValue(a.value(5, 1), 5));
    }

    @Test
    void sizesFollowTheImageDistribution() {
        // Kolmogorov–Smirnov against the clipped lognormal, at significance 0.001.
        Dataset d = new Dataset(spec(20_000, 0));
        ImageSizeDistribution sizes = d.spec().sizes();
        int n = 20_000;
        int[] s = new int[n];
        for (int i = 0; i < n; i++) {
            s[i] = d.valueSize(i, 0);
        }
        Arrays.sort(s);
        double maxGap = 0;
        for (int i = 0; i < n; i++) {
            double cdf = lognormalCdf(s[i], sizes);
            maxGap = Math.max(maxGap, Math.max(Math.abs(cdf - (i + 1.0) / n), Math.abs(cdf - (double) i / n)));
            // ties: sizes are whole bytes, so the empirical CDF jumps where the model is continuous
            while (i + 1 < n && s[i + 1] == s[i]) {
                i++;
            }
        }
        assertTrue(maxGap < 1.95 / Math.sqrt(n) + 1.0 / (20 << 10), "KS distance " + maxGap);
        long under50k = Arrays.stream(s).filter(x -> x < 50 << 10).count();
        assertTrue(Math.abs(under50k / (double) n - 0.9) < 0.01, "90% under 50 KiB: " + under50k);
    }

    private static double lognormalCdf(double x, ImageSizeDistribution sizes) {
        if (x >= sizes.maxBytes()) {
            return 1;
        }
        double z = Math.log(x / sizes.medianBytes()) / sizes.sigma();
        return 0.5 * erfc(-z / Math.sqrt(2));
    }

    private static double erfc(double x) {
        // Numerical Recipes' erfc, fractional error below 1.2e-7.
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    @Test
    void aFractionOfObjectsDuplicatesEarlierContent() {
        int n = 50_000;
        Dataset d = new Dataset(spec(n, 0.3));
        int duplicates = 0;
        for (int i = 0; i < n; i++) {
            long c = d.contentIndex(i);
            assertTrue(c <= i);
            if (c != i) {
                duplicates++;
                assertEquals(c, d.contentIndex(c), "a duplicate's source carries its own content");
                assertArrayEquals(d.value(c, 0), d.value(i, 0));
            }
        }
        double sd = Math.sqrt(n * 0.3 * 0.7);
        assertTrue(Math.abs(duplicates - 0.3 * n) < 4.5 * sd, "duplicates " + duplicates);
        assertEquals(0, new Dataset(spec(1000, 0)).contentIndex(0));
    }

    @Test
    void fixedSizeAndValidation() {
        Dataset d = new Dataset(new DatasetSpec("f", 1, 10, 0, 0, 0, 0, 20 << 10, 0));
        for (int i = 0; i < 10; i++) {
            assertEquals(20 << 10, d.value(i, 0).length);
            assertEquals(20 << 10, d.value(i, 3).length);
        }
        assertThrows(IllegalArgumentException.class, () -> spec(10, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new DatasetSpec("a b", 1, 1, 0, 0, 0, 0, 1, 0));
        DatasetSpec s = spec(10, 0.25);
        assertEquals(s, DatasetSpec.fromFields(s.toFields()));
    }
}
