package dev.cairn.service.admin;

import dev.cairn.engine.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engine checkpoints taken for backups, each under {@code <dir>/<id>}, held until released or
 * until its lease runs out (a job that crashed cannot hold one forever). A checkpoint is a set of
 * hard links to immutable engine files plus copies of the rest, so holding one costs disk space
 * only for files the live engine has since deleted; writes and compactions never wait for it.
 * Checkpoints live only as long as the service: the directory is emptied on start.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class Checkpoints implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpoints.class);
    /** How often leases are checked; a lease expires at most this late. */
    static final Duration EXPIRY_CHECK = Duration.ofSeconds(1);

    /** One checkpoint as the endpoint reports it. */
    public record Checkpoint(String id, Path path, Instant createdAt, Instant expiresAt) {
    }

    private final Engine engine;
    private final Path dir;
    private final Duration lease;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Map<String, Checkpoint> held = new ConcurrentHashMap<>();
    private final ScheduledExecutorService expiry;

    public Checkpoints(Engine engine, Path dir, Duration lease, Clock clock) throws IOException {
        this.engine = engine;
        this.dir = dir.toAbsolutePath();
        this.lease = lease;
        this.clock = clock;
        deleteTree(this.dir);
        Files.createDirectories(this.dir);
        expiry = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cairn-checkpoint-expiry");
            t.setDaemon(true);
            return t;
        });
        expiry.scheduleWithFixedDelay(this::releaseExpired, EXPIRY_CHECK.toMillis(), EXPIRY_CHECK.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    public Duration lease() {
        return lease;
    }

    /** Takes a checkpoint of the engine's current state. */
    public Checkpoint create() throws IOException {
        byte[] idBytes = new byte[8];
        random.nextBytes(idBytes);
        String id = HexFormat.of().formatHex(idBytes);
        Path path = dir.resolve(id);
        Instant now = clock.instant();
        try {
            engine.checkpoint(path);
        } catch (IOException | RuntimeException e) {
            deleteTree(path);
            throw e;
        }
        Checkpoint c = new Checkpoint(id, path, now, now.plus(lease));
        held.put(id, c);
        LOG.info("checkpoint {} taken at {}, lease until {}", id, path, c.expiresAt());
        return c;
    }

    /** Every checkpoint held, oldest first. */
    public List<Checkpoint> list() {
        List<Checkpoint> all = new ArrayList<>(held.values());
        all.sort(Comparator.comparing(Checkpoint::createdAt).thenComparing(Checkpoint::id));
        return all;
    }

    /** Deletes a checkpoint; false when none has this id. */
    public boolean release(String id) throws IOException {
        Checkpoint c = held.remove(id);
        if (c == null) {
            return false;
        }
        deleteTree(c.path());
        LOG.info("checkpoint {} released", id);
        return true;
    }

    void releaseExpired() {
        Instant now = clock.instant();
        for (Checkpoint c : held.values()) {
            if (!now.isBefore(c.expiresAt())) {
                try {
                    if (release(c.id())) {
                        LOG.warn("checkpoint {} was not released within its lease of {}; released by the service",
                                c.id(), lease);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.warn("checkpoint {}: release after its lease failed: {}", c.id(), e.toString());
                }
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Stops the lease checks and deletes every checkpoint. */
    @Override
    public void close() throws IOException {
        expiry.shutdownNow();
        for (String id : List.copyOf(held.keySet())) {
            release(id);
        }
    }
}
