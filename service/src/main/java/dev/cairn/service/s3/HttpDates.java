package dev.cairn.service.s3;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** HTTP (RFC 1123) and S3 XML (ISO 8601) dates. Thread-safe. */
public final class HttpDates {
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private HttpDates() {
    }

    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    /** The last second formatted: a hot object's Last-Modified is the same on every GET. */
    private record Formatted(long second, String text) {
    }

    private static volatile Formatted last = new Formatted(0, "Thu, 01 Jan 1970 00:00:00 GMT");

    /** RFC 1123 as HTTP wants it ({@code Sun, 06 Nov 1994 08:49:37 GMT}); written by hand, it is on every GET. */
    public static String http(long epochMillis) {
        long seconds = Math.floorDiv(epochMillis, 1000);
        Formatted known = last;
        if (known.second() == seconds) {
            return known.text();
        }
        String text = format(seconds);
        last = new Formatted(seconds, text);
        return text;
    }

    private static String format(long seconds) {
        long days = Math.floorDiv(seconds, 86400);
        int secondOfDay = Math.floorMod(seconds, 86400);
        // Civil date from days since 1970-01-01 (H. Hinnant's algorithm): 400-year eras of 146097 days.
        long z = days + 719468;
        long era = Math.floorDiv(z, 146097);
        long dayOfEra = z - era * 146097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        int day = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        char[] c = new char[29];
        DAYS[Math.floorMod(days + 3, 7)].getChars(0, 3, c, 0);
        c[3] = ',';
        c[4] = ' ';
        two(c, 5, day);
        c[7] = ' ';
        MONTHS[month - 1].getChars(0, 3, c, 8);
        c[11] = ' ';
        two(c, 12, (int) (year / 100));
        two(c, 14, (int) (year % 100));
        c[16] = ' ';
        two(c, 17, secondOfDay / 3600);
        c[19] = ':';
        two(c, 20, secondOfDay / 60 % 60);
        c[22] = ':';
        two(c, 23, secondOfDay % 60);
        " GMT".getChars(0, 4, c, 25);
        return new String(c);
    }

    private static void two(char[] c, int at, int v) {
        c[at] = (char) ('0' + v / 10);
        c[at + 1] = (char) ('0' + v % 10);
    }

    public static String iso(long epochMillis) {
        return ISO.format(Instant.ofEpochMilli(epochMillis));
    }

    /** Epoch millis of an HTTP date, or -1 when it does not parse (the condition is then ignored). */
    public static long parseHttp(String value) {
        if (value == null) {
            return -1;
        }
        try {
            return Instant.from(DateTimeFormatter.RFC_1123_DATE_TIME.parse(value.trim())).toEpochMilli();
        } catch (DateTimeParseException e) {
            return -1;
        }
    }

    /** HTTP dates have one-second resolution: compare at it. */
    public static long seconds(long epochMillis) {
        return Math.floorDiv(epochMillis, 1000) * 1000;
    }
}
