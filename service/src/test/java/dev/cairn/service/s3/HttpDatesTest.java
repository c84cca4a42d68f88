package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HttpDatesTest {
    @Test
    void handWrittenFormatMatchesTheJdks() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        for (int i = 0; i < 10_000; i++) {
            long millis = rnd.nextLong(0, 4_102_444_800_000L);
            String want = DateTimeFormatter.RFC_1123_DATE_TIME.format(Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC));
            if (want.charAt(6) == ' ') {
                want = want.substring(0, 5) + "0" + want.substring(5);
            }
            assertEquals(want, HttpDates.http(millis), "seed=" + seed + " millis=" + millis);
            assertEquals(millis / 1000 * 1000, HttpDates.parseHttp(HttpDates.http(millis)));
        }
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", HttpDates.http(784111777000L));
    }
}
