package dev.cairn.backup;

import dev.cairn.backup.time.JobClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock tests move: it stands still until {@link #advance}d, and a wait advances it at once. Thread-safe. */
public final class ManualClock implements JobClock {
    private final AtomicLong nanos = new AtomicLong();
    private final long originMillis;

    public ManualClock(Instant start) {
        this.originMillis = start.toEpochMilli();
    }

    /** The system's time now, from which this clock then moves only when told. */
    public static ManualClock startingNow() {
        return new ManualClock(Instant.now());
    }

    public void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Override
    public long millis() {
        return originMillis + nanos.get() / 1_000_000;
    }

    @Override
    public long nanos() {
        return nanos.get();
    }

    @Override
    public ZoneId zone() {
        return ZoneOffset.UTC;
    }

    @Override
    public void sleep(Duration duration) {
        if (!duration.isNegative()) {
            advance(duration);
        }
    }
}
