package dev.cairn.loadtest.generator;

import java.util.SplittableRandom;

/**
 * YCSB's "latest" distribution: Zipfian over recency, so the most recently inserted key is the
 * most popular. The Zipfian's zeta grows incrementally with the key count.
 *
 * <p>Thread-safety: safe for concurrent use; the generator is replaced under a lock when the
 * key count has grown, and read without one.
 */
public final class LatestChooser implements KeyChooser {

    private final double theta;
    private volatile ZipfianGenerator zipfian;

    public LatestChooser() {
        this(ZipfianGenerator.DEFAULT_THETA);
    }

    public LatestChooser(double theta) {
        this.theta = theta;
    }

    @Override
    public long next(SplittableRandom random, long count) {
        if (count < 2) {
            return 0;
        }
        return count - 1 - generatorFor(count).rank(random.nextDouble());
    }

    private ZipfianGenerator generatorFor(long count) {
        ZipfianGenerator current = zipfian;
        if (current != null && current.items() == count) {
            return current;
        }
        synchronized (this) {
            current = zipfian;
            if (current == null || current.items() != count) {
                double zetan = current == null || current.items() > count
                        ? ZipfianGenerator.zeta(0, count, theta, 0)
                        : ZipfianGenerator.zeta(current.items(), count, theta, current.zetan());
                current = new ZipfianGenerator(count, theta, zetan);
                zipfian = current;
            }
            return current;
        }
    }
}
