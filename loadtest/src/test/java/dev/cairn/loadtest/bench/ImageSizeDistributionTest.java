package dev.cairn.loadtest.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ImageSizeDistributionTest {

    private static final long SEED = 20261121L;
    private static final int SAMPLES = 100_000;

    @Test
    void quantileFunctionHitsTheDefiningPoints() {
        ImageSizeDistribution sizes = ImageSizeDistribution.images();
        assertEquals(20 * 1024, sizes.sizeAt(0.5));
        assertEquals(50 * 1024, sizes.sizeAt(0.9), 1.0);
        assertEquals(1024, sizes.sizeAt(1e-12));
        assertEquals(1 << 20, sizes.sizeAt(1 - 1e-15));
        assertEquals(0.7150, sizes.sigma(), 1e-4);
    }

    @Test
    void inverseNormalMatchesKnownQuantiles() {
        assertEquals(0.0, ImageSizeDistribution.inverseNormal(0.5), 1e-12);
        assertEquals(1.2815515655446004, ImageSizeDistribution.inverseNormal(0.9), 1e-8);
        assertEquals(-1.959963984540054, ImageSizeDistribution.inverseNormal(0.025), 1e-8);
        assertEquals(3.090232306167814, ImageSizeDistribution.inverseNormal(0.999), 1e-8);
        assertEquals(-4.264890793922825, ImageSizeDistribution.inverseNormal(1e-5), 1e-7);
        assertThrows(IllegalArgumentException.class, () -> ImageSizeDistribution.inverseNormal(0));
        assertThrows(IllegalArgumentException.class, () -> ImageSizeDistribution.inverseNormal(1));
    }

    @Test
    void sampledSizesLookLikeImages() {
        System.out.println("seed " + SEED);
        ImageWorkload workload = new ImageWorkload(SEED, ImageSizeDistribution.images());
        int[] sizes = new int[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            sizes[i] = workload.valueSize(i, 0);
        }
        Arrays.sort(sizes);
        long under50k = Arrays.stream(sizes).filter(s -> s < 50 * 1024).count();
        double fractionUnder50k = (double) under50k / SAMPLES;
        assertTrue(fractionUnder50k > 0.89 && fractionUnder50k < 0.91, "fraction under 50 KiB: " + fractionUnder50k);
        int median = sizes[SAMPLES / 2];
        assertTrue(median >= 15 * 1024 && median <= 25 * 1024, "median " + median);
        assertTrue(sizes[SAMPLES - 1] <= 1 << 20, "max " + sizes[SAMPLES - 1]);
        assertTrue(sizes[0] >= 1024, "min " + sizes[0]);
        assertTrue(sizes[SAMPLES - 1] > 200 * 1024, "the tail reaches past 200 KiB: max " + sizes[SAMPLES - 1]);
    }

    @Test
    void sampledSizesFitTheDistribution() {
        // Kolmogorov-Smirnov against the clipped lognormal; 1.95/sqrt(n) is the 0.1% critical value.
        ImageSizeDistribution distribution = ImageSizeDistribution.images();
        ImageWorkload workload = new ImageWorkload(SEED, distribution);
        double[] sizes = new double[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            sizes[i] = workload.valueSize(i, 1);
        }
        Arrays.sort(sizes);
        double worst = 0;
        for (int i = 0; i < SAMPLES; i++) {
            double x = sizes[i];
            if (x <= distribution.minBytes() || x >= distribution.maxBytes()) {
                continue;
            }
            double z = Math.log(x / distribution.medianBytes()) / distribution.sigma();
            double cdf = normalCdf(z);
            worst = Math.max(worst, Math.max(Math.abs(cdf - (double) i / SAMPLES), Math.abs(cdf - (i + 1.0) / SAMPLES)));
        }
        assertTrue(worst < 1.95 / Math.sqrt(SAMPLES), "KS distance " + worst);
    }

    @Test
    void rejectsInconsistentParameters() {
        assertThrows(IllegalArgumentException.class, () -> new ImageSizeDistribution(100, 50, 1, 1000));
        assertThrows(IllegalArgumentException.class, () -> new ImageSizeDistribution(100, 200, 0, 1000));
        assertThrows(IllegalArgumentException.class, () -> new ImageSizeDistribution(100, 2000, 1, 1000));
    }

    /** Φ(z) by the Abramowitz-Stegun 7.1.26 erf approximation (error below 1.5e-7). */
    private static double normalCdf(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x);
        double erf = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
                * Math.exp(-x * x);
        return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
    }
}
