package dev.cairn.backup.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;

/**
 * The time the backup job goes by, so that tests control it: the wall clock for what is recorded
 * or compared across processes (run ids, leases' expiry, attempt records, a schedule's firings,
 * what prune may remove), a monotonic count for how long things take (checkpoint intervals,
 * rates, run times), and waiting. The system's by default ({@link #SYSTEM}).
 */
public interface JobClock {
    /** The system's clocks in the JVM's time zone; waits sleep. */
    JobClock SYSTEM = of(Clock.systemDefaultZone());

    /** Milliseconds since the epoch, wall-clock. */
    long millis();

    /** Nanoseconds from an arbitrary origin, monotonic: only differences mean anything. */
    long nanos();

    /** The zone a schedule's firings are reckoned in. */
    ZoneId zone();

    /** Returns once {@code duration} passed on this clock. */
    void sleep(Duration duration) throws InterruptedException;

    default Instant instant() {
        return Instant.ofEpochMilli(millis());
    }

    /** The wall time in this clock's zone. */
    default ZonedDateTime now() {
        return ZonedDateTime.ofInstant(instant(), zone());
    }

    /** Wall time from {@code wall} (a system clock, or one offset from it), monotonic time from the system; waits sleep. */
    static JobClock of(Clock wall) {
        return new JobClock() {
            @Override
            public long millis() {
                return wall.millis();
            }

            @Override
            public long nanos() {
                return System.nanoTime();
            }

            @Override
            public ZoneId zone() {
                return wall.getZone();
            }

            @Override
            public void sleep(Duration duration) throws InterruptedException {
                long ms = duration.toMillis();
                if (ms > 0) {
                    Thread.sleep(ms);
                }
            }
        };
    }
}
