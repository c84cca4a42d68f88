package dev.cairn.loadtest.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Each key distribution's samples against its exact distribution (chi-square, fixed seeds). */
class KeyChooserDistributionTest {

    private static final long SEED = 20260521L;
    private static final int KEYS = 1000;
    private static final int SAMPLES = 400_000;

    private static long[] sample(KeyChooser chooser, long count, int samples) {
        System.out.println("seed " + SEED);
        SplittableRandom random = new SplittableRandom(SEED);
        long[] counts = new long[(int) count];
        for (int i = 0; i < samples; i++) {
            long k = chooser.next(random, count);
            assertTrue(k >= 0 && k < count, "index out of range: " + k);
            counts[(int) k]++;
        }
        return counts;
    }

    @Test
    void uniformIsUniform() {
        double[] p = new double[KEYS];
        java.util.Arrays.fill(p, 1.0 / KEYS);
        ChiSquare.assertFits("uniform", sample(new UniformChooser(), KEYS, SAMPLES), p);
    }

    @Test
    void zipfianRanksFollowTheGeneratorsExactDistribution() {
        ZipfianGenerator z = new ZipfianGenerator(KEYS, ZipfianGenerator.DEFAULT_THETA);
        double[] p = new double[KEYS];
        double sum = 0;
        for (int r = 0; r < KEYS; r++) {
            p[r] = z.probability(r);
            sum += p[r];
        }
        assertEquals(1.0, sum, 1e-9);
        assertEquals(1 / z.zetan(), p[0], 1e-12);
        SplittableRandom random = new SplittableRandom(SEED);
        long[] counts = new long[KEYS];
        for (int i = 0; i < SAMPLES; i++) {
            counts[(int) z.rank(random.nextDouble())]++;
        }
        ChiSquare.assertFits("zipfian ranks", counts, p);
        assertTrue(counts[0] > counts[1] && counts[1] > counts[10] && counts[10] > counts[500], "popularity falls with rank");
    }

    @Test
    void scrambledZipfianMatchesHashedRanks() {
        ZipfianGenerator ranks = ScrambledZipfianChooser.ranks();
        double[] p = new double[KEYS];
        double head = 0;
        for (long r = 0; r < 2_000_000; r++) {
            double pr = ranks.probability(r);
            p[(int) ScrambledZipfianChooser.keyOf(r, KEYS)] += pr;
            head += pr;
        }
        // The ten billion ranks beyond the first two million land almost evenly on the keys.
        for (int k = 0; k < KEYS; k++) {
            p[k] += (1 - head) / KEYS;
        }
        long[] counts = sample(new ScrambledZipfianChooser(), KEYS, SAMPLES);
        ChiSquare.assertFits("scrambled zipfian", counts, p);
        long hottest = ScrambledZipfianChooser.keyOf(0, KEYS);
        assertTrue(hottest != 0 || ScrambledZipfianChooser.keyOf(1, KEYS) != 1, "popular keys are scattered");
        for (long c : counts) {
            assertTrue(c <= counts[(int) hottest], "rank 0's key is the most popular");
        }
    }

    @Test
    void fnvMatchesYcsb() {
        // YCSB's Utils.fnvhash64(0) and (1), computed by its definition.
        long h0 = 0xCBF29CE484222325L;
        for (int i = 0; i < 8; i++) {
            h0 *= 1099511628211L;
        }
        assertEquals(Math.abs(h0), ScrambledZipfianChooser.fnv64(0));
        assertTrue(ScrambledZipfianChooser.fnv64(1) != ScrambledZipfianChooser.fnv64(0));
    }

    @Test
    void latestFavoursTheNewestKeys() {
        ZipfianGenerator z = new ZipfianGenerator(KEYS, ZipfianGenerator.DEFAULT_THETA);
        long[] byKey = sample(new LatestChooser(), KEYS, SAMPLES);
        long[] byAge = new long[KEYS];
        double[] p = new double[KEYS];
        for (int k = 0; k < KEYS; k++) {
            byAge[KEYS - 1 - k] = byKey[k];
            p[k] = z.probability(k);
        }
        ChiSquare.assertFits("latest", byAge, p);
    }

    @Test
    void latestFollowsAGrowingKeyCount() {
        LatestChooser chooser = new LatestChooser();
        SplittableRandom random = new SplittableRandom(SEED);
        long[] newest = new long[2];
        for (int i = 0; i < 20_000; i++) {
            long count = 100 + i / 100;
            long k = chooser.next(random, count);
            assertTrue(k >= 0 && k < count);
            if (k == count - 1) {
                newest[0]++;
            }
            newest[1]++;
        }
        double share = (double) newest[0] / newest[1];
        assertTrue(share > 0.15 && share < 0.25, "the newest key gets about 1/zeta(n) of requests: " + share);
        // Incremental zeta equals zeta computed from scratch.
        ZipfianGenerator fresh = new ZipfianGenerator(300, ZipfianGenerator.DEFAULT_THETA);
        double incremental = ZipfianGenerator.zeta(200, 300, ZipfianGenerator.DEFAULT_THETA,
                ZipfianGenerator.zeta(0, 200, ZipfianGenerator.DEFAULT_THETA, 0));
        assertEquals(fresh.zetan(), incremental, 1e-9);
    }

    @Test
    void hotspotSendsItsShareToTheHotSet() {
        HotspotChooser chooser = new HotspotChooser(0.2, 0.8);
        long hot = chooser.hotKeys(KEYS);
        assertEquals(200, hot);
        double[] p = new double[KEYS];
        for (int k = 0; k < KEYS; k++) {
            p[k] = k < hot ? 0.8 / hot : 0.2 / (KEYS - hot);
        }
        ChiSquare.assertFits("hotspot", sample(chooser, KEYS, SAMPLES), p);
    }

    @Test
    void everyChooserIsReproducibleFromItsSeed() {
        for (KeyDistribution d : KeyDistribution.values()) {
            KeyChooser a = d.chooser(0.2, 0.8);
            KeyChooser b = d.chooser(0.2, 0.8);
            SplittableRandom ra = new SplittableRandom(SEED);
            SplittableRandom rb = new SplittableRandom(SEED);
            for (int i = 0; i < 1000; i++) {
                assertEquals(a.next(ra, KEYS), b.next(rb, KEYS), d.label());
            }
        }
    }
}
