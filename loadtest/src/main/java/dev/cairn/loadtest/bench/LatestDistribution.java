package dev.cairn.loadtest.bench;

/**
 * YCSB's "latest" request distribution over items {@code 0 .. n - 1}: a Zipfian draw of a rank
 * (rank 0 most popular, exponent {@link #YCSB_ZIPFIAN_CONSTANT}) counted back from the newest
 * item, so item {@code n - 1} is requested most often. The rank uses the closed form of Gray et
 * al., "Quickly Generating Billion-Record Synthetic Databases" (SIGMOD 1994), as YCSB's
 * ZipfianGenerator does, driven by a uniform number the caller supplies, so draws are
 * reproducible from the caller's seed.
 *
 * <p>Thread-safety: immutable.
 */
public final class LatestDistribution {

    /** YCSB's default Zipfian exponent. */
    public static final double YCSB_ZIPFIAN_CONSTANT = 0.99;

    private final long items;
    private final double theta;
    private final double zetaN;
    private final double alpha;
    private final double eta;
    private final double secondRankBound;

    public LatestDistribution(long items) {
        this(items, YCSB_ZIPFIAN_CONSTANT);
    }

    public LatestDistribution(long items, double theta) {
        if (items < 2) {
            throw new IllegalArgumentException("a latest distribution needs at least 2 items, got " + items);
        }
        if (!(theta > 0 && theta < 1)) {
            throw new IllegalArgumentException("the Zipfian exponent must be in (0, 1), got " + theta);
        }
        this.items = items;
        this.theta = theta;
        this.zetaN = zeta(items, theta);
        double zeta2 = zeta(2, theta);
        this.alpha = 1 / (1 - theta);
        this.eta = (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2 / zetaN);
        this.secondRankBound = 1 + Math.pow(0.5, theta);
    }

    public long items() {
        return items;
    }

    /** The item for the uniform number {@code u} in [0, 1). */
    public long item(double u) {
        return items - 1 - rank(u);
    }

    /** The Zipfian rank for {@code u}: 0 is the most popular. */
    long rank(double u) {
        double uz = u * zetaN;
        if (uz < 1) {
            return 0;
        }
        if (uz < secondRankBound) {
            return 1;
        }
        long rank = (long) (items * Math.pow(eta * u - eta + 1, alpha));
        return Math.min(items - 1, Math.max(0, rank));
    }

    /** The share of requests that go to the {@code k} most popular items. */
    public double shareOfTop(long k) {
        return Math.min(1.0, zeta(Math.min(k, items), theta) / zetaN);
    }

    private static double zeta(long n, double theta) {
        double sum = 0;
        for (long i = 1; i <= n; i++) {
            sum += 1 / Math.pow(i, theta);
        }
        return sum;
    }
}
