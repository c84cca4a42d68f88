package dev.cairn.backup.run;

import dev.cairn.backup.target.Target;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A lock in the target that expires: the holder writes a lease file with an expiry and renews it
 * every quarter of its duration. A crashed holder stops renewing, and once the lease expired the
 * next taker deletes it and takes the lock. Taking is create-if-absent (a hard link in a
 * directory, {@code If-None-Match: *} on S3). A holder that finds its lease gone or taken over
 * marks itself {@link #lost()}; its work must stop.
 */
public final class Lease implements AutoCloseable {
    /** The lease duration of runs and prunes, in seconds, as an option default. */
    public static final String DEFAULT_SECONDS = "120";

    /** What the lease file holds. */
    public record Record(String owner, String purpose, long startedMillis, long expiresMillis) {
    }

    private final Target target;
    private final String name;
    private final Duration duration;
    private final Record initial;
    private final ScheduledExecutorService renewer;
    private volatile boolean lost;
    private volatile String lostReason;
    private volatile long lastRenewed = System.currentTimeMillis();

    private Lease(Target target, String name, Duration duration, Record initial) {
        this.target = target;
        this.name = name;
        this.duration = duration;
        this.initial = initial;
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
        long now = System.currentTimeMillis();
        Record mine = new Record(ownerId(), purpose, now, now + duration.toMillis());
        for (int attempt = 0; attempt < 2; attempt++) {
            if (target.putIfAbsent(name, Json.write(mine))) {
                return new Lease(target, name, duration, mine);
            }
            Record held = readRecord(target, name);
            if (held == null) {
                continue;
            }
            if (held.expiresMillis() > System.currentTimeMillis()) {
                throw new HeldException("the archive " + target.describe() + " is locked by " + held.owner()
                        + " (" + held.purpose() + ", since " + Instant.ofEpochMilli(held.startedMillis())
                        + ", lease valid until " + Instant.ofEpochMilli(held.expiresMillis()) + ")");
            }
            // Expired: its holder crashed or hung past the lease. Remove it and try once more.
            target.delete(name);
        }
        throw new HeldException("the archive " + target.describe() + " lock " + name + " is contended; try again");
    }

    /** The live lease's record, or null when none (or it expired). */
    public static Record live(Target target, String name) throws IOException {
        Record r = readRecord(target, name);
        return r != null && r.expiresMillis() > System.currentTimeMillis() ? r : null;
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
            long now = System.currentTimeMillis();
            target.put(name, Json.write(new Record(initial.owner(), initial.purpose(), initial.startedMillis(),
                    now + duration.toMillis())));
            lastRenewed = now;
        } catch (IOException | RuntimeException e) {
            if (System.currentTimeMillis() - lastRenewed > duration.toMillis()) {
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
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "unknown-host";
        }
        return host + ":" + ManagementFactory.getRuntimeMXBean().getPid() + ":" + UUID.randomUUID().toString().substring(0, 8);
    }
}
