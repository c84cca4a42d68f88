package dev.cairn.backup.run;

import dev.cairn.backup.target.Target;
import dev.cairn.backup.time.JobClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A lock in the target that expires: the holder writes a lease file with an expiry and renews it
 * every quarter of its duration. A crashed holder stops renewing, and once the lease expired the
 * next taker deletes it and takes the lock. A holder of the taker's own host whose process is gone
 * ({@link HolderProcess}) is stale at once: a job killed outright does not block the next one for
 * the lease's duration. Taking is create-if-absent (a hard link in a
 * directory, {@code If-None-Match: *} on S3). A holder that finds its lease gone or taken over
 * marks itself {@link #lost()}; its work must stop.
 */
public final class Lease implements AutoCloseable {
    /** The lease duration of runs and prunes, in seconds, as an option default. */
    public static final String DEFAULT_SECONDS = "120";

    /**
     * What the lease file holds. {@code heldOutside}: what the holder holds outside the archive
     * (its source's engine checkpoint), for the taker of a stale lease to release; null when nothing.
     */
    public record Record(String owner, String purpose, long startedMillis, long expiresMillis, HolderProcess holder,
                         String heldOutside) {
        /** True when the holder is known gone: its process ended on this host. */
        public boolean holderGone() {
            return holder != null && holder.goneFromThisHost();
        }

        Record renewed(long expires) {
            return new Record(owner, purpose, startedMillis, expires, holder, heldOutside);
        }
    }

    private final Target target;
    private final String name;
    private final Duration duration;
    private final JobClock clock;
    private final Record initial;
    private final ScheduledExecutorService renewer;
    private volatile boolean lost;
    private volatile String lostReason;
    private volatile long lastRenewed;
    private Record takenOver;

    private Lease(Target target, String name, Duration duration, JobClock clock, Record initial) {
        this.target = target;
        this.name = name;
        this.duration = duration;
        this.clock = clock;
        this.initial = initial;
        this.lastRenewed = clock.millis();
        renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "lease-renewer");
            t.setDaemon(true);
            return t;
        });
        long period = Math.max(1, duration.toMillis() / 4);
        renewer.scheduleAtFixedRate(this::renew, period, period, TimeUnit.MILLISECONDS);
    }

    /** Thrown when a live lease of another holder exists. */
    public static final class HeldException extends IOException {
        public HeldException(String message) {
            super(message);
        }
    }

    public static Lease acquire(Target target, String name, String purpose, Duration duration) throws IOException {
        return acquire(target, name, purpose, null, duration, JobClock.SYSTEM);
    }

    /**
     * @param heldOutside what this holder holds outside the archive, for a taker to release should it die; or null
     * @param clock       what the lease's start, expiry and renewals are read from, and a held lease's expiry compared with
     */
    public static Lease acquire(Target target, String name, String purpose, String heldOutside, Duration duration,
                                JobClock clock) throws IOException {
        long now = clock.millis();
        Record mine = new Record(ownerId(), purpose, now, now + duration.toMillis(), HolderProcess.current(), heldOutside);
        Record stale = null;
        for (int attempt = 0; attempt < 2; attempt++) {
            if (target.putIfAbsent(name, Json.write(mine))) {
                Lease lease = new Lease(target, name, duration, clock, mine);
                lease.takenOver = stale;
                return lease;
            }
            Record held = readRecord(target, name);
            if (held == null) {
                continue;
            }
            if (held.expiresMillis() > clock.millis() && !held.holderGone()) {
                throw new HeldException("the archive " + target.describe() + " is locked by " + held.owner()
                        + " (" + held.purpose() + ", since " + Instant.ofEpochMilli(held.startedMillis())
                        + ", lease valid until " + Instant.ofEpochMilli(held.expiresMillis()) + ")");
            }
            // Expired, or its process is gone: its holder crashed or hung past the lease. Remove it and try once more.
            stale = held;
            target.delete(name);
        }
        throw new HeldException("the archive " + target.describe() + " lock " + name + " is contended; try again");
    }

    /** The live lease's record at {@code clock}'s time, or null when none (or it expired, or its holder is gone). */
    public static Record live(Target target, String name, JobClock clock) throws IOException {
        Record r = readRecord(target, name);
        return r != null && r.expiresMillis() > clock.millis() && !r.holderGone() ? r : null;
    }

    /** The stale lease this one replaced (its holder crashed), or null when the lock was free. */
    public Record takenOver() {
        return takenOver;
    }

    private static Record readRecord(Target target, String name) throws IOException {
        byte[] bytes = target.read(name);
        return bytes == null ? null : Json.read(bytes, Record.class, target.describe() + " " + name);
    }

    private void renew() {
        if (lost) {
            return;
        }
        try {
            Record held = readRecord(target, name);
            if (held == null || !held.owner().equals(initial.owner())) {
                lose("the lease " + name + " was " + (held == null ? "removed" : "taken by " + held.owner()));
                return;
            }
            long now = clock.millis();
            target.put(name, Json.write(initial.renewed(now + duration.toMillis())));
            lastRenewed = now;
        } catch (IOException | RuntimeException e) {
            if (clock.millis() - lastRenewed > duration.toMillis()) {
                lose("the lease could not be renewed: " + e.getMessage());
            }
        }
    }

    private void lose(String reason) {
        lostReason = reason;
        lost = true;
    }

    public boolean lost() {
        return lost;
    }

    /** Throws when the lease was lost: the holder must stop writing. */
    public void check() throws IOException {
        if (lost) {
            throw new IOException("lost the archive lock: " + lostReason);
        }
    }

    public long startedMillis() {
        return initial.startedMillis();
    }

    @Override
    public void close() throws IOException {
        renewer.shutdownNow();
        Record held = readRecord(target, name);
        if (held != null && held.owner().equals(initial.owner())) {
            target.delete(name);
        }
    }

    static String ownerId() {
        return HolderProcess.hostName() + ":" + ProcessHandle.current().pid() + ":" + UUID.randomUUID().toString().substring(0, 8);
    }
}
