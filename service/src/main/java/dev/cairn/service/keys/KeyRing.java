package dev.cairn.service.keys;

import dev.cairn.service.auth.CredentialsProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access keys the service accepts right now: the fixed admin keys of the configuration, and
 * those of the key file, which is read again whenever it changes (checked every
 * {@code cairn.auth.keys-reload-interval}). A changed file that does not parse, or whose
 * permissions let others read it, is refused with an error in the log and the keys already loaded
 * stay. Secrets are never logged.
 *
 * <p>Thread-safe: the keys are one immutable map behind a volatile reference, swapped whole.
 */
public final class KeyRing implements CredentialsProvider, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KeyRing.class);

    private final Map<String, AccessKey> fixed;
    private final Path file;
    private final boolean groupReadable;
    private volatile Map<String, AccessKey> keys;
    private volatile Object loadedVersion;
    private ScheduledExecutorService watcher;

    /**
     * @param fixed         the configured keys (admin), never reloaded
     * @param file          the key file, or null for none
     * @param groupReadable whether a group-readable key file is accepted
     */
    public KeyRing(Collection<AccessKey> fixed, Path file, boolean groupReadable) throws IOException {
        Map<String, AccessKey> f = new LinkedHashMap<>();
        for (AccessKey k : fixed) {
            f.put(k.id(), k);
        }
        this.fixed = Map.copyOf(f);
        this.file = file;
        this.groupReadable = groupReadable;
        this.keys = this.fixed;
        if (file != null) {
            Object version = version();
            this.keys = merge(KeyFile.read(file, groupReadable));
            this.loadedVersion = version;
        }
    }

    /** A ring of fixed keys only. */
    public static KeyRing of(Collection<AccessKey> fixed) {
        try {
            return new KeyRing(fixed, null, false);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Starts checking the key file for changes every {@code interval}; no-op without a file. */
    public synchronized void watch(Duration interval) {
        if (file == null || watcher != null) {
            return;
        }
        watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cairn-keys-watcher");
            t.setDaemon(true);
            return t;
        });
        long ms = Math.max(1, interval.toMillis());
        watcher.scheduleWithFixedDelay(this::reloadIfChanged, ms, ms, TimeUnit.MILLISECONDS);
    }

    /** Reads the key file again when it changed since the last load. Returns whether new keys took effect. */
    public boolean reloadIfChanged() {
        if (file == null) {
            return false;
        }
        try {
            Object version = version();
            if (Objects.equals(version, loadedVersion)) {
                return false;
            }
            Map<String, AccessKey> next = merge(KeyFile.read(file, groupReadable));
            loadedVersion = version;
            keys = next;
            LOG.info("key file {} reloaded: {} access keys", file, next.size());
            return true;
        } catch (IOException | RuntimeException e) {
            // Logged once per change; the keys already loaded stay in force.
            Object version = versionOrNull();
            if (!Objects.equals(version, loadedVersion)) {
                loadedVersion = version;
                LOG.error("key file {} not reloaded, the keys loaded before stay in force: {}", file, e.getMessage());
            }
            return false;
        }
    }

    private Map<String, AccessKey> merge(List<AccessKey> fromFile) {
        Map<String, AccessKey> m = new LinkedHashMap<>(fixed);
        for (AccessKey k : fromFile) {
            if (m.putIfAbsent(k.id(), k) != null) {
                throw new IllegalArgumentException("access key " + k.id() + " is both in the key file and in"
                        + " cairn.auth.access-key or the credentials file");
            }
        }
        return Map.copyOf(m);
    }

    /**
     * What identifies the file's content: its inode and a digest of its bytes. Times and sizes
     * alone miss a rewrite of the same length within one tick of the file system's clock, and the
     * file is small enough to read at every check.
     */
    private Object version() throws IOException {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        return List.of(String.valueOf(a.fileKey()), HexFormat.of().formatHex(sha256(Files.readAllBytes(file))));
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private Object versionOrNull() {
        try {
            return version();
        } catch (NoSuchFileException e) {
            return "missing";
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public Optional<String> secretKey(String accessKey) {
        AccessKey k = keys.get(accessKey);
        return k == null ? Optional.empty() : Optional.of(k.secret());
    }

    /** The key, or null when unknown. */
    public AccessKey key(String accessKey) {
        return accessKey == null ? null : keys.get(accessKey);
    }

    /** Whether {@code accessKey} may {@code access} {@code bucket} (null: all buckets). */
    public boolean allows(String accessKey, Access access, String bucket) {
        AccessKey k = key(accessKey);
        return k != null && k.allows(access, bucket);
    }

    public int size() {
        return keys.size();
    }

    @Override
    public synchronized void close() {
        if (watcher != null) {
            watcher.shutdownNow();
            watcher = null;
        }
    }

    @Override
    public String toString() {
        return "KeyRing[" + keys.size() + " access keys" + (file == null ? "" : ", file " + file) + "]";
    }
}
