package dev.cairn.service.s3;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** HTTP (RFC 1123) and S3 XML (ISO 8601) dates. Thread-safe. */
public final class HttpDates {
    private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private HttpDates() {
    }

    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    /** RFC 1123 as HTTP wants it ({@code Sun, 06 Nov 1994 08:49:37 GMT}); written by hand, it is on every GET. */
    public static String http(long epochMillis) {
        long seconds = Math.floorDiv(epochMillis, 1000);
        long days = Math.floorDiv(seconds, 86400);
        int secondOfDay = (int) Math.floorMod(seconds, 86400);
        java.time.LocalDate date = java.time.LocalDate.ofEpochDay(days);
        StringBuilder b = new StringBuilder(29);
        b.append(DAYS[date.getDayOfWeek().ordinal()]).append(", ");
        two(b, date.getDayOfMonth()).append(' ').append(MONTHS[date.getMonthValue() - 1]).append(' ');
        b.append(date.getYear()).append(' ');
        two(b, secondOfDay / 3600).append(':');
        two(b, secondOfDay / 60 % 60).append(':');
        two(b, secondOfDay % 60).append(" GMT");
        return b.toString();
    }

    private static StringBuilder two(StringBuilder b, int v) {
        return b.append((char) ('0' + v / 10)).append((char) ('0' + v % 10));
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
        return Instant.ofEpochMilli(epochMillis).truncatedTo(ChronoUnit.SECONDS).toEpochMilli();
    }
}
