package dev.cairn.engine.fs;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * When {@link FaultInjectingFileSystem} makes an operation fail: the operation kinds, an optional
 * path predicate, how many matching operations succeed first, and then whether the rule fails
 * once, always, or with a probability drawn from a seeded {@link Random}. Built with
 * {@link #on(FsOp...)}, for example
 * {@code FaultRule.on(FsOp.SYNC).matching(p -> p.toString().endsWith(".log")).afterSucceeding(3).once()}.
 *
 * <p>Thread-safe: matching and counting are atomic per rule.
 */
public final class FaultRule {

    private enum Mode { ONCE, ALWAYS, PROBABILITY }

    private final Set<FsOp> ops;
    private final Predicate<Path> paths;
    private final long succeedFirst;
    private final boolean tornWrites;
    private final Mode mode;
    private final double probability;
    private final Random random;
    private long matched;
    private long failed;

    private FaultRule(Builder builder, Mode mode, double probability, Random random) {
        this.ops = builder.ops;
        this.paths = builder.paths;
        this.succeedFirst = builder.succeedFirst;
        this.tornWrites = builder.tornWrites;
        this.mode = mode;
        this.probability = probability;
        this.random = random;
    }

    /** Starts a rule for the given operation kinds (all kinds if none are given). */
    public static Builder on(FsOp... ops) {
        return new Builder(ops.length == 0 ? EnumSet.allOf(FsOp.class) : EnumSet.of(ops[0], ops));
    }

    /** Whether this operation fails; counts it if it matches. */
    synchronized boolean fires(FsOp op, Path... operands) {
        if (!ops.contains(op) || !matchesAny(operands)) {
            return false;
        }
        matched++;
        if (matched <= succeedFirst) {
            return false;
        }
        boolean fire = switch (mode) {
            case ONCE -> failed == 0;
            case ALWAYS -> true;
            case PROBABILITY -> random.nextDouble() < probability;
        };
        if (fire) {
            failed++;
        }
        return fire;
    }

    private boolean matchesAny(Path... operands) {
        for (Path path : operands) {
            if (paths.test(path)) {
                return true;
            }
        }
        return false;
    }

    /** Whether a failing append first writes half of its bytes, as a torn write does. */
    boolean tornWrites() {
        return tornWrites;
    }

    /** Operations that matched kind and path so far. */
    public synchronized long matchedCount() {
        return matched;
    }

    /** Operations this rule made fail so far. */
    public synchronized long failedCount() {
        return failed;
    }

    @Override
    public String toString() {
        return "FaultRule" + ops + " " + mode.name().toLowerCase() + (mode == Mode.PROBABILITY ? " p=" + probability : "")
                + (succeedFirst > 0 ? " after " + succeedFirst : "");
    }

    /** Not thread-safe; used by one thread to build a rule. */
    public static final class Builder {
        private final Set<FsOp> ops;
        private Predicate<Path> paths = path -> true;
        private long succeedFirst;
        private boolean tornWrites;

        private Builder(Set<FsOp> ops) {
            this.ops = ops;
        }

        /** Only operations on a path matching {@code predicate}. */
        public Builder matching(Predicate<Path> predicate) {
            this.paths = predicate;
            return this;
        }

        /** The first {@code count} matching operations succeed. */
        public Builder afterSucceeding(long count) {
            if (count < 0) {
                throw new IllegalArgumentException("count must be >= 0: " + count);
            }
            this.succeedFirst = count;
            return this;
        }

        /** A failing {@link FsOp#APPEND} writes the first half of its bytes before it throws. */
        public Builder tornWrites() {
            this.tornWrites = true;
            return this;
        }

        /** Fails the first eligible operation only. */
        public FaultRule once() {
            return new FaultRule(this, Mode.ONCE, 1, null);
        }

        /** Fails every eligible operation. */
        public FaultRule always() {
            return new FaultRule(this, Mode.ALWAYS, 1, null);
        }

        /** Fails each eligible operation with {@code probability}, drawn from {@code new Random(seed)}. */
        public FaultRule withProbability(double probability, long seed) {
            if (!(probability >= 0 && probability <= 1)) {
                throw new IllegalArgumentException("probability must be in [0, 1]: " + probability);
            }
            return new FaultRule(this, Mode.PROBABILITY, probability, new Random(seed));
        }
    }
}
