package dev.cairn.loadtest.generator;

import java.util.SplittableRandom;

/**
 * YCSB's hotspot distribution: a fraction {@code hotOperations} of the operations goes to the
 * first {@code hotSet} fraction of the keys, the rest to the others, uniformly within each part.
 *
 * <p>Thread-safety: immutable.
 */
public final class HotspotChooser implements KeyChooser {

    /** The default hot-set fraction (YCSB's {@code hotspotdatafraction}). */
    public static final double DEFAULT_HOT_SET = 0.2;
    /** The default fraction of operations on the hot set (YCSB's {@code hotspotopnfraction}). */
    public static final double DEFAULT_HOT_OPERATIONS = 0.8;

    private final double hotSet;
    private final double hotOperations;

    public HotspotChooser(double hotSet, double hotOperations) {
        if (!(hotSet > 0 && hotSet < 1) || !(hotOperations >= 0 && hotOperations <= 1)) {
            throw new IllegalArgumentException("hotspot needs 0 < hot set < 1 and 0 <= hot operations <= 1, got "
                    + hotSet + " and " + hotOperations);
        }
        this.hotSet = hotSet;
        this.hotOperations = hotOperations;
    }

    public double hotSet() {
        return hotSet;
    }

    public double hotOperations() {
        return hotOperations;
    }

    /** The number of hot keys among {@code count}: at least one, and one less than all. */
    public long hotKeys(long count) {
        return Math.max(1, Math.min(count - 1, (long) (count * hotSet)));
    }

    @Override
    public long next(SplittableRandom random, long count) {
        if (count == 1) {
            return 0;
        }
        long hot = hotKeys(count);
        if (random.nextDouble() < hotOperations) {
            return random.nextLong(hot);
        }
        return hot + random.nextLong(count - hot);
    }
}
