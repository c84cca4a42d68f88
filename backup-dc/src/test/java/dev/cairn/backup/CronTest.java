package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.backup.schedule.Cron;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class CronTest {
    private static final ZonedDateTime T = ZonedDateTime.of(2025, 1, 30, 14, 37, 12, 0, ZoneOffset.UTC); // a Thursday

    private static ZonedDateTime next(String cron, ZonedDateTime after) {
        return Cron.parse(cron).next(after);
    }

    private static ZonedDateTime at(int month, int day, int hour, int minute) {
        return ZonedDateTime.of(2025, month, day, hour, minute, 0, 0, ZoneOffset.UTC);
    }

    @Test
    void dailyAtThree() {
        assertEquals(at(1, 31, 3, 0), next("0 3 * * *", T));
        assertEquals(at(2, 1, 3, 0), next("0 3 * * *", at(1, 31, 3, 0)), "strictly after");
    }

    @Test
    void everyMinuteAndSteps() {
        assertEquals(at(1, 30, 14, 38), next("* * * * *", T));
        assertEquals(at(1, 30, 14, 45), next("*/15 * * * *", T));
        assertEquals(at(1, 30, 15, 10), next("10-50/20 15 * * *", T));
        assertEquals(at(1, 30, 14, 40), next("5,40 * * * *", T));
    }

    @Test
    void monthsRollOverYearsAndNamesWork() {
        assertEquals(ZonedDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC), next("0 0 1 jan *", T));
        assertEquals(at(3, 1, 0, 0), next("0 0 1 MAR *", T));
        assertEquals(at(2, 28, 0, 0), next("0 0 28 feb *", T));
    }

    @Test
    void weekdaysAndTheEitherRuleOfTwoDayFields() {
        assertEquals(at(2, 2, 6, 0), next("0 6 * * sun", T));
        assertEquals(at(2, 2, 6, 0), next("0 6 * * 7", T), "7 is Sunday too");
        assertEquals(at(1, 31, 6, 0), next("0 6 * * 1-5", T), "Friday is the next weekday");
        // Day 15 or Monday, whichever comes first: Monday Feb 3.
        assertEquals(at(2, 3, 0, 0), next("0 0 15 * mon", T));
    }

    @Test
    void badExpressionsAreRefusedClearly() {
        assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 3 * *"));
        assertThrows(IllegalArgumentException.class, () -> Cron.parse("60 3 * * *"));
        assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 3 * * funday"));
        assertThrows(IllegalArgumentException.class, () -> Cron.parse("*/0 * * * *"));
        assertThrows(IllegalArgumentException.class, () -> Cron.parse("0 0 30 feb *").next(T), "never fires");
    }
}
