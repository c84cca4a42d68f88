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

    public static String http(long epochMillis) {
        return DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.ofEpochMilli(epochMillis).atOffset(ZoneOffset.UTC));
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
