package dev.cairn.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.backup.prune.Retention;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetentionTest {
    /** Two backups a day (02:00 and 14:00) over 21 days from Monday 2025-01-06. */
    private static List<Retention.Candidate> history() {
        List<Retention.Candidate> out = new ArrayList<>();
        ZonedDateTime start = ZonedDateTime.of(2025, 1, 6, 2, 0, 0, 0, ZoneOffset.UTC);
        for (int d = 0; d < 21; d++) {
            for (int h : new int[] {0, 12}) {
                ZonedDateTime t = start.plusDays(d).plusHours(h);
                out.add(new Retention.Candidate(String.format("d%02d-%02d", d, t.getHour()), t.toInstant().toEpochMilli()));
            }
        }
        return out;
    }

    @Test
    void keepLastKeepsTheNewest() {
        assertEquals(Set.of("d20-14", "d20-02", "d19-14"), new Retention(3, 0, 0).select(history()));
    }

    @Test
    void keepDailyKeepsTheNewestOfEachDay() {
        assertEquals(Set.of("d20-14", "d19-14", "d18-14"), new Retention(0, 3, 0).select(history()));
    }

    @Test
    void keepWeeklyKeepsTheNewestOfEachIsoWeek() {
        // Weeks start Monday: days 14-20, 7-13, 0-6.
        assertEquals(Set.of("d20-14", "d13-14"), new Retention(0, 0, 2).select(history()));
    }

    @Test
    void rulesUnite() {
        assertEquals(Set.of("d20-14", "d20-02", "d19-14", "d13-14", "d06-14"),
                new Retention(2, 2, 3).select(history()));
    }
}
