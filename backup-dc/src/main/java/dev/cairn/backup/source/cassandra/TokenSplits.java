package dev.cairn.backup.source.cassandra;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Divides the Murmur3 token ring into scan ranges: first at every node token (so each range has
 * one replica set), then each range evenly until there are at least the requested count. A range
 * is (start, end] with start &lt; end; the range that wraps past the ring's end is cut at it.
 * Murmur3 never yields {@link Long#MIN_VALUE} as a row's token, so (MIN, MAX] is the whole ring.
 * Stateless.
 */
final class TokenSplits {
    /** (start, end] of the ring. */
    record Range(long start, long end) {
        /** Stable across runs on the same ring; safe as a file name. */
        String id() {
            return "t" + start + "_" + end;
        }
    }

    private TokenSplits() {
    }

    /** Ranges covering the whole ring exactly once, in ring order. */
    static List<Range> of(List<Long> nodeTokens, int target) {
        if (target < 1) {
            throw new IllegalArgumentException("the split count must be at least 1, got " + target);
        }
        TreeSet<Long> cuts = new TreeSet<>(nodeTokens);
        cuts.remove(Long.MIN_VALUE);
        List<Range> primary = new ArrayList<>();
        long previous = Long.MIN_VALUE;
        for (long cut : cuts) {
            primary.add(new Range(previous, cut));
            previous = cut;
        }
        if (previous != Long.MAX_VALUE) {
            primary.add(new Range(previous, Long.MAX_VALUE));
        }
        int each = Math.max(1, (target + primary.size() - 1) / primary.size());
        List<Range> out = new ArrayList<>();
        for (Range r : primary) {
            out.addAll(split(r, each));
        }
        return out;
    }

    private static List<Range> split(Range r, int parts) {
        BigInteger start = BigInteger.valueOf(r.start());
        BigInteger width = BigInteger.valueOf(r.end()).subtract(start);
        int n = width.compareTo(BigInteger.valueOf(parts)) < 0 ? Math.max(1, width.intValue()) : parts;
        List<Range> out = new ArrayList<>(n);
        long from = r.start();
        for (int i = 1; i <= n; i++) {
            long to = i == n ? r.end()
                    : start.add(width.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(n))).longValueExact();
            out.add(new Range(from, to));
            from = to;
        }
        return out;
    }

    /** The range a split id names. */
    static Range parse(String id) {
        if (!id.startsWith("t") || id.indexOf('_', 2) < 0) {
            throw new IllegalArgumentException("not a token-range split id: " + id);
        }
        int underscore = id.indexOf('_', 2);
        return new Range(Long.parseLong(id.substring(1, underscore)), Long.parseLong(id.substring(underscore + 1)));
    }
}
