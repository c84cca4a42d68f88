package dev.cairn.backup.prune;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.IsoFields;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which backups to keep: the union of the newest {@code last}; the newest backup of each of the
 * newest {@code daily} calendar days (UTC) that have a backup; the same for {@code weekly} ISO
 * weeks. A backup may satisfy several rules. Days and weeks without a backup do not count.
 */
public record Retention(int last, int daily, int weekly) {

    /** A backup as retention sees it. */
    public record Candidate(String id, long finishedMillis) {
    }

    public Retention {
        if (last < 0 || daily < 0 || weekly < 0) {
            throw new IllegalArgumentException("--keep-* must not be negative");
        }
    }

    public boolean keepsAnything() {
        return last > 0 || daily > 0 || weekly > 0;
    }

    /** The ids to keep, newest first. */
    public Set<String> select(List<Candidate> backups) {
        List<Candidate> newest = new ArrayList<>(backups);
        newest.sort(Comparator.comparingLong(Candidate::finishedMillis).thenComparing(Candidate::id).reversed());
        Set<String> keep = new LinkedHashSet<>();
        for (int i = 0; i < Math.min(last, newest.size()); i++) {
            keep.add(newest.get(i).id());
        }
        Set<Object> days = new HashSet<>();
        Set<Object> weeks = new HashSet<>();
        for (Candidate c : newest) {
            LocalDate day = Instant.ofEpochMilli(c.finishedMillis()).atZone(ZoneOffset.UTC).toLocalDate();
            if (days.size() < daily && days.add(day)) {
                keep.add(c.id());
            }
            String week = day.get(IsoFields.WEEK_BASED_YEAR) + "-W" + day.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            if (weeks.size() < weekly && weeks.add(week)) {
                keep.add(c.id());
            }
        }
        return keep;
    }
}
