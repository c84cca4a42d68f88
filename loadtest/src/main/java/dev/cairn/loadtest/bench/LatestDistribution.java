package dev.cairn.loadtest.bench;

import dev.cairn.loadtest.generator.ZipfianGenerator;

/**
 * YCSB's "latest" request distribution over a fixed set of items {@code 0 .. n - 1}: a Zipfian
 * rank (the load generator's {@link ZipfianGenerator}) counted back from the newest item, so item
 * {@code n - 1} is requested most often. Driven by a uniform number the caller supplies, so draws
 * are reproducible from the caller's seed. The load generator's {@code LatestChooser} does the
 * same over a growing key count.
 *
 * <p>Thread-safety: immutable.
 */
public final class LatestDistribution {

    /** YCSB's default Zipfian exponent. */
    public static final double YCSB_ZIPFIAN_CONSTANT = ZipfianGenerator.DEFAULT_THETA;

    private final ZipfianGenerator zipfian;

    public LatestDistribution(long items) {
        this(items, YCSB_ZIPFIAN_CONSTANT);
    }

    public LatestDistribution(long items, double theta) {
        this.zipfian = new ZipfianGenerator(items, theta);
    }

    public long items() {
        return zipfian.items();
    }

    /** The item for the uniform number {@code u} in [0, 1). */
    public long item(double u) {
        return zipfian.items() - 1 - rank(u);
    }

    /** The Zipfian rank for {@code u}: 0 is the most popular. */
    long rank(double u) {
        return zipfian.rank(u);
    }

    /** The share of requests that go to the {@code k} most popular items. */
    public double shareOfTop(long k) {
        return Math.min(1.0, ZipfianGenerator.zeta(0, Math.min(k, items()), zipfian.theta(), 0) / zipfian.zetan());
    }
}
