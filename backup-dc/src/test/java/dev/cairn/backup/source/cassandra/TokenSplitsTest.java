package dev.cairn.backup.source.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TokenSplitsTest {

    @Test
    void rangesCoverTheRingOnceInOrderAndCutAtEveryNodeToken() {
        List<Long> nodes = List.of(-9223372036854775808L, 0L, -9223372036854774808L, 4611686018427387904L);
        List<TokenSplits.Range> ranges = TokenSplits.of(nodes, 10);
        assertTrue(ranges.size() >= 10, "at least the requested count: " + ranges.size());
        assertEquals(Long.MIN_VALUE, ranges.get(0).start());
        assertEquals(Long.MAX_VALUE, ranges.get(ranges.size() - 1).end());
        for (int i = 1; i < ranges.size(); i++) {
            assertEquals(ranges.get(i - 1).end(), ranges.get(i).start(), "contiguous at " + i);
            assertTrue(ranges.get(i).start() < ranges.get(i).end(), "non-empty at " + i);
        }
        for (long node : List.of(0L, -9223372036854774808L, 4611686018427387904L)) {
            assertTrue(ranges.stream().anyMatch(r -> r.end() == node), "a range ends at node token " + node);
        }
    }

    @Test
    void idsAreStableAndParseBack() {
        List<TokenSplits.Range> a = TokenSplits.of(List.of(5L, -7L), 8);
        List<TokenSplits.Range> b = TokenSplits.of(List.of(-7L, 5L), 8);
        assertEquals(a, b);
        for (TokenSplits.Range r : a) {
            assertEquals(r, TokenSplits.parse(r.id()));
        }
    }

    @Test
    void aTinyRangeIsNotCutBelowOneToken() {
        List<TokenSplits.Range> r = TokenSplits.of(List.of(10L, 12L), 64);
        assertTrue(r.stream().allMatch(x -> x.start() < x.end()));
    }
}
