package dev.cairn.loadtest.generator;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

/** Pearson's chi-square goodness-of-fit test, at significance 1e-4 (fixed seeds make it deterministic). */
final class ChiSquare {

    private static final double Z_1E4 = 3.7190164854556804;

    private ChiSquare() {
    }

    /**
     * Asserts that {@code observed} counts fit {@code expectedProbabilities}; bins expected
     * below 5 are pooled.
     */
    static void assertFits(String what, long[] observed, double[] expectedProbabilities) {
        long n = 0;
        for (long o : observed) {
            n += o;
        }
        List<double[]> bins = new ArrayList<>();
        double pooledE = 0;
        double pooledO = 0;
        for (int i = 0; i < observed.length; i++) {
            double e = expectedProbabilities[i] * n;
            if (e < 5) {
                pooledE += e;
                pooledO += observed[i];
            } else {
                bins.add(new double[] {observed[i], e});
            }
        }
        if (pooledE > 0) {
            bins.add(new double[] {pooledO, pooledE});
        }
        double chi = 0;
        for (double[] b : bins) {
            chi += (b[0] - b[1]) * (b[0] - b[1]) / b[1];
        }
        int df = bins.size() - 1;
        double critical = critical(df);
        assertTrue(chi < critical, what + ": chi-square " + chi + " with " + df + " degrees of freedom exceeds "
                + critical + " (significance 1e-4)");
    }

    /** Wilson–Hilferty approximation of the chi-square quantile at 1 - 1e-4. */
    static double critical(int df) {
        double a = 2.0 / (9 * df);
        return df * Math.pow(1 - a + Z_1E4 * Math.sqrt(a), 3);
    }
}
