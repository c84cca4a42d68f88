package dev.cairn.backup.schedule;

import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * A 5-field cron expression: minute (0-59), hour (0-23), day of month (1-31), month (1-12 or
 * jan-dec), day of week (0-7, 0 and 7 Sunday, or sun-sat). Each field is {@code *}, a value, a
 * range {@code a-b}, a step {@code *}/n or {@code a-b/n}, or a comma list of these. As in
 * classic cron, when both day fields are restricted a day matching either one fires.
 */
public final class Cron {
    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
            "oct", "nov", "dec");
    private static final List<String> DAYS = List.of("sun", "mon", "tue", "wed", "thu", "fri", "sat");

    private final String expression;
    private final BitSet minutes;
    private final BitSet hours;
    private final BitSet daysOfMonth;
    private final BitSet months;
    private final BitSet daysOfWeek;
    private final boolean domRestricted;
    private final boolean dowRestricted;

    private Cron(String expression, String[] f) {
        this.expression = expression;
        minutes = parse(f[0], 0, 59, null, 0, "minute");
        hours = parse(f[1], 0, 23, null, 0, "hour");
        daysOfMonth = parse(f[2], 1, 31, null, 0, "day of month");
        months = parse(f[3], 1, 12, MONTHS, 1, "month");
        BitSet dow = parse(f[4], 0, 7, DAYS, 0, "day of week");
        if (dow.get(7)) {
            dow.set(0);
        }
        daysOfWeek = dow;
        domRestricted = !f[2].equals("*");
        dowRestricted = !f[4].equals("*");
    }

    public static Cron parse(String expression) {
        String[] f = expression.trim().split("\\s+");
        if (f.length != 5) {
            throw new IllegalArgumentException("cron expression '" + expression
                    + "': expected 5 fields (minute hour day-of-month month day-of-week), got " + f.length);
        }
        return new Cron(expression, f);
    }

    private BitSet parse(String field, int min, int max, List<String> names, int nameBase, String what) {
        BitSet set = new BitSet(max + 1);
        for (String part : field.split(",", -1)) {
            try {
                int step = 1;
                String range = part;
                int slash = part.indexOf('/');
                if (slash >= 0) {
                    step = Integer.parseInt(part.substring(slash + 1));
                    range = part.substring(0, slash);
                    if (step < 1) {
                        throw new IllegalArgumentException("step must be at least 1");
                    }
                }
                int lo;
                int hi;
                if (range.equals("*")) {
                    lo = min;
                    hi = max;
                } else {
                    int dash = range.indexOf('-');
                    lo = value(dash < 0 ? range : range.substring(0, dash), names, nameBase);
                    hi = dash < 0 ? (slash >= 0 ? max : lo) : value(range.substring(dash + 1), names, nameBase);
                }
                if (lo < min || hi > max || lo > hi) {
                    throw new IllegalArgumentException("out of range " + min + "-" + max);
                }
                for (int v = lo; v <= hi; v += step) {
                    set.set(v);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cron expression '" + expression + "': bad " + what + " field '"
                        + field + "': " + e.getMessage());
            }
        }
        return set;
    }

    private static int value(String s, List<String> names, int nameBase) {
        if (names != null) {
            int i = names.indexOf(s.toLowerCase(Locale.ROOT));
            if (i >= 0) {
                return i + nameBase;
            }
        }
        try {
            return Integer.parseInt(s);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a number" + (names == null ? "" : " or name"));
        }
    }

    private boolean dayMatches(ZonedDateTime t) {
        boolean dom = daysOfMonth.get(t.getDayOfMonth());
        boolean dow = daysOfWeek.get(t.getDayOfWeek().getValue() % 7);
        if (domRestricted && dowRestricted) {
            return dom || dow;
        }
        return dom && dow;
    }

    /** The first time strictly after {@code after} (to the minute) that the expression matches. */
    public ZonedDateTime next(ZonedDateTime after) {
        ZonedDateTime t = after.truncatedTo(ChronoUnit.MINUTES).plusMinutes(1);
        ZonedDateTime limit = after.plusYears(5);
        while (t.isBefore(limit)) {
            if (!months.get(t.getMonthValue())) {
                t = t.withDayOfMonth(1).truncatedTo(ChronoUnit.DAYS).plusMonths(1);
            } else if (!dayMatches(t)) {
                t = t.truncatedTo(ChronoUnit.DAYS).plusDays(1);
            } else if (!hours.get(t.getHour())) {
                t = t.truncatedTo(ChronoUnit.HOURS).plusHours(1);
            } else if (!minutes.get(t.getMinute())) {
                t = t.plusMinutes(1);
            } else {
                return t;
            }
        }
        throw new IllegalArgumentException("cron expression '" + expression + "' never fires");
    }

    @Override
    public String toString() {
        return expression;
    }
}
