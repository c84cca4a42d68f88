package dev.cairn.loadtest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class StallsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static double[] seconds(int n) {
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = i;
        }
        return s;
    }

    @Test
    void aSteadyRunFlagsNothingAndNamesItsSlowestSecond() {
        Stalls s = Stalls.judge(seconds(5), new double[] {3000, 3100, 2900, 3050, 2800});
        assertEquals(new Stalls(5, 3000, 3100, 2800, 4, List.of()), s);
        assertFalse(s.stalled());
    }

    @Test
    void aSecondUnderATenthOfTheMedianIsFlagged() {
        Stalls s = Stalls.judge(seconds(5), new double[] {3000, 3100, 299, 3050, 2800});
        assertEquals(new Stalls(5, 3000, 3100, 299, 2, List.of(2.0)), s);
    }

    @Test
    void exactlyATenthIsNoStall() {
        assertFalse(Stalls.judge(seconds(3), new double[] {3000, 3000, 300}).stalled());
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(2.5, Stalls.judge(seconds(4), new double[] {4, 1, 3, 2}).medianPerSecond());
    }

    @Test
    void aStallLongerThanHalfTheRunIsMeasuredAgainstTheFastestSecond() {
        // A few seconds at ~3,270 objects/s, then almost nothing: the median second is itself a stall.
        Stalls s = Stalls.judge(seconds(10), new double[] {3270, 3300, 3100, 0, 1, 0, 0, 2, 0, 0});
        assertEquals(0.5, s.medianPerSecond());
        assertEquals(List.of(3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0), s.flaggedAt());
        assertTrue(s.againstFastest());
    }

    @Test
    void noIntervalsJudgeNothing() {
        assertEquals(new Stalls(0, 0, 0, 0, -1, List.of()), Stalls.judge(new double[0], new double[0]));
    }

    @Test
    void aResultsTimelineIsJudgedByRateWithoutItsPartialLastIntervalAndWithErrors() throws Exception {
        JsonNode result = JSON.readTree("""
                {"config": {"intervalSeconds": 1.0}, "timeline": [
                  {"start": 0.0, "end": 1.0, "counts": {"read": 900, "update": 100}, "errors": 0},
                  {"start": 1.0, "end": 2.0, "counts": {"read": 950, "update": 40}, "errors": 10},
                  {"start": 2.0, "end": 4.0, "counts": {"read": 150, "update": 0}, "errors": 0},
                  {"start": 4.0, "end": 5.0, "counts": {"read": 1000, "update": 0}, "errors": 0},
                  {"start": 5.0, "end": 5.2, "counts": {"read": 3, "update": 0}, "errors": 0}]}""");
        Stalls s = Stalls.of(result);
        // The interval from 2 s lasted two: 75 operations a second. The last 0.2 s is left out.
        assertEquals(new Stalls(4, 1000, 1000, 75, 2, List.of(2.0)), s);
        assertFalse(s.againstFastest());
        assertTrue(SummaryTable.stalls(result).contains(
                "intervals of 1 s: median 1,000.0 ops/s, slowest 75.0 ops/s (from 2.0 s)"));
        assertTrue(SummaryTable.stalls(result).contains("STALL: 1 of 4 intervals under a tenth of the median (from 2.0 s)"));
    }

    @Test
    void aRunOfOnePartialIntervalPrintsNoStallLine() throws Exception {
        JsonNode result = JSON.readTree("""
                {"config": {"intervalSeconds": 1.0}, "timeline": [
                  {"start": 0.0, "end": 0.4, "counts": {"read": 9}, "errors": 0}]}""");
        assertEquals(0, Stalls.of(result).judged());
        assertEquals("", SummaryTable.stalls(result));
    }
}
