package dev.cairn.store.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class WriteIdGeneratorTest {
    private static final Instant T = Instant.parse("2031-05-01T10:00:00Z");

    @Test
    void writesAreTimestampedByTheStoresClock() {
        WriteId.Generator ids = new WriteId.Generator(Clock.fixed(T, ZoneOffset.UTC));
        assertEquals(T.toEpochMilli() * 1000, ids.next().timestampMicros());
    }

    @Test
    void timestampsKeepRisingWhenTheClockStandsStillOrGoesBack() {
        WriteId.Generator ids = new WriteId.Generator(Clock.fixed(T, ZoneOffset.UTC));
        WriteId first = ids.next();
        WriteId second = ids.next();
        assertEquals(first.timestampMicros() + 1, second.timestampMicros());
        WriteId ahead = WriteId.firstAt(T.plusSeconds(5).toEpochMilli() * 1000);
        WriteId after = ids.nextAfter(ahead);
        assertEquals(ahead.timestampMicros() + 1, after.timestampMicros());
        assertTrue(ids.next().compareTo(after) > 0);
    }
}
