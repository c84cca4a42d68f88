package dev.cairn.loadtest.generator;

/**
 * Ranks {@code 0 .. items - 1} with Zipfian popularity, rank 0 the most popular: YCSB's
 * {@code ZipfianGenerator}, which implements Gray et al., "Quickly Generating Billion-Record
 * Synthetic Databases" (SIGMOD 1994). Ranks 0 and 1 get their exact Zipf probabilities; the
 * others follow Gray's closed-form approximation, so the distribution is a function of
 * {@code (items, theta)} that {@link #probability} states exactly (the tests check samples
 * against it).
 *
 * <p>Thread-safety: immutable.
 */
public final class ZipfianGenerator {

    /** YCSB's default skew ({@code zipfianconstant}). */
    public static final double DEFAULT_THETA = 0.99;

    private final long items;
    private final double theta;
    private final double zetan;
    private final double alpha;
    private final double eta;
    private final double secondThreshold;

    public ZipfianGenerator(long items, double theta) {
        this(items, theta, zeta(0, items, theta, 0));
    }

    /** With {@code zetan} = {@link #zeta}(items, theta) already known (it costs O(items)). */
    public ZipfianGenerator(long items, double theta, double zetan) {
        if (items < 2 || !(theta > 0 && theta < 1)) {
            throw new IllegalArgumentException("zipfian needs at least 2 items and 0 < theta < 1, got "
                    + items + " and " + theta);
        }
        this.items = items;
        this.theta = theta;
        this.zetan = zetan;
        double zeta2 = zeta(0, 2, theta, 0);
        this.alpha = 1.0 / (1.0 - theta);
        this.eta = (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2 / zetan);
        this.secondThreshold = 1.0 + Math.pow(0.5, theta);
    }

    /** {@code sum(1 / i^theta)} for {@code i} in {@code (from, to]}, added to {@code partial}. */
    public static double zeta(long from, long to, double theta, double partial) {
        double sum = partial;
        for (long i = from; i < to; i++) {
            sum += 1 / Math.pow(i + 1, theta);
        }
        return sum;
    }

    public long items() {
        return items;
    }

    public double theta() {
        return theta;
    }

    public double zetan() {
        return zetan;
    }

    /** The rank for a uniform draw {@code u} in [0, 1). */
    public long rank(double u) {
        double uz = u * zetan;
        if (uz < 1.0) {
            return 0;
        }
        if (uz < secondThreshold) {
            return 1;
        }
        long rank = (long) (items * Math.pow(eta * u - eta + 1, alpha));
        return Math.min(items - 1, Math.max(0, rank));
    }

    /** The exact probability that {@link #rank} of a uniform draw is {@code rank}. */
    public double probability(long rank) {
        double second = secondThreshold / zetan;
        if (rank == 0) {
            return 1 / zetan;
        }
        if (rank == 1) {
            return second - 1 / zetan;
        }
        // rank(u) = r for r >= 2 when r <= items * (eta*u - eta + 1)^alpha < r + 1, and u >= second.
        double low = Math.max(second, uFor(rank));
        double high = rank == items - 1 ? 1.0 : Math.max(second, uFor(rank + 1));
        return Math.max(0, Math.min(1.0, high) - Math.min(1.0, low));
    }

    private double uFor(long rank) {
        return (Math.pow((double) rank / items, 1 / alpha) - 1 + eta) / eta;
    }
}
