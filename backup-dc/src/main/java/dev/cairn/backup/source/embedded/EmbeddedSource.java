package dev.cairn.backup.source.embedded;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.store.BucketInfo;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads an engine checkpoint of the running service: asks the service for one through its admin
 * endpoint, opens it read-only ({@link CheckpointReader}), never the live engine, and releases it
 * on {@link #close()} — also when opening failed halfway, and from a shutdown hook when the job
 * is stopped; the service's lease covers a job killed outright. By default reads bypass every
 * cache, are limited to {@code --read-rate} and run at idle I/O and CPU priority (the store's
 * {@code ScanPriority}; the job's own process idles all of itself first: {@code Main}); {@code --through-caches} turns all three off, as a benchmark baseline. The checkpoint's path is the service's: the job runs on the service's host, or
 * mounts its data volume at the same path.
 *
 * <p>Splits: one per bucket ({@code bucket-<name>}); a position is the hex UTF-8 of the last key.
 * Thread-safety: safe for concurrent scans and content reads.
 */
public final class EmbeddedSource implements BackupSource {
    private final AdminClient admin;
    private final AdminClient.Checkpoint checkpoint;
    private final CheckpointReader reader;
    private final String serviceUrl;
    private final Thread releaseOnExit;
    private boolean closed;

    private EmbeddedSource(AdminClient admin, AdminClient.Checkpoint checkpoint, CheckpointReader reader, String serviceUrl) {
        this.admin = admin;
        this.serviceUrl = serviceUrl;
        this.checkpoint = checkpoint;
        this.reader = reader;
        this.releaseOnExit = new Thread(this::releaseQuietly, "cairn-backup-release-checkpoint");
        Runtime.getRuntime().addShutdownHook(releaseOnExit);
    }

    public static EmbeddedSource open(SourceOptions o) throws IOException {
        check(o);
        long bytesPerSecond = o.throughCaches ? 0 : ReadRateOption.parse(o.readRate);
        AdminClient admin = new AdminClient(o.serviceUrl, readSecret(o.adminAccessKeyFile),
                readSecret(o.adminSecretKeyFile), o.region);
        AdminClient.Checkpoint c = admin.create();
        boolean idle = !o.throughCaches;
        String description = "embedded checkpoint=" + c.id() + (idle ? " reads=scan,idle" : " reads=through-caches")
                + (bytesPerSecond == 0 ? "" : " rate-limited");
        try {
            CheckpointReader reader = CheckpointReader.open(c.path(), !o.throughCaches, bytesPerSecond, idle, description);
            return new EmbeddedSource(admin, c, reader, o.serviceUrl);
        } catch (IOException | RuntimeException e) {
            try {
                admin.release(c.id());
            } catch (IOException releaseFailed) {
                e.addSuppressed(releaseFailed);
            }
            throw new IOException("cannot open checkpoint " + c.id() + " at " + c.path()
                    + " (the job must see the service's data directory at the same path): " + e.getMessage(), e);
        }
    }

    /** The options' own errors, found without contacting the service. */
    public static void check(SourceOptions o) {
        if (o.serviceUrl == null) {
            throw new IllegalArgumentException("--service-url is required with --source embedded");
        }
        URI url;
        try {
            url = new URI(o.serviceUrl);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("--service-url " + o.serviceUrl + ": " + e.getMessage(), e);
        }
        if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
            throw new IllegalArgumentException("--service-url " + o.serviceUrl
                    + ": expected http://host:port or https://host:port");
        }
        if (o.adminAccessKeyFile == null || o.adminSecretKeyFile == null) {
            throw new IllegalArgumentException("--admin-access-key-file and --admin-secret-key-file are required"
                    + " with --source embedded");
        }
        for (Path file : List.of(o.adminAccessKeyFile, o.adminSecretKeyFile)) {
            if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
                throw new IllegalArgumentException(file + ": no such key file, or not readable");
            }
        }
        ReadRateOption.parse(o.readRate);
    }

    private static String readSecret(Path file) throws IOException {
        String s = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (s.isEmpty()) {
            throw new IllegalArgumentException(file + " is empty");
        }
        return s;
    }

    /** The checkpoint read; for reports and tests. */
    public String checkpointId() {
        return checkpoint.id();
    }

    @Override
    public String describe() {
        return reader.describe();
    }

    /**
     * The service, not the checkpoint: a run killed mid-way resumes on the next run's checkpoint.
     * Rows before a split's position then come from the first checkpoint and rows after it from
     * the second, as a scan of a live Cassandra table mixes times; every row's content is copied.
     */
    @Override
    public String resumeKey() {
        return "embedded service=" + serviceUrl;
    }

    @Override
    public String heldOutside() {
        return checkpointOf(serviceUrl) + checkpoint.id();
    }

    /** Releases the checkpoint of a killed job reading the same service; a checkpoint already gone is fine. */
    @Override
    public boolean releaseLeftBehind(String heldOutside) throws IOException {
        String prefix = checkpointOf(serviceUrl);
        if (heldOutside == null || !heldOutside.startsWith(prefix) || heldOutside.equals(heldOutside())) {
            return false;
        }
        admin.release(heldOutside.substring(prefix.length()));
        return true;
    }

    private static String checkpointOf(String serviceUrl) {
        return "checkpoint of " + serviceUrl + ": ";
    }

    @Override
    public List<BucketInfo> buckets() throws IOException {
        return reader.buckets();
    }

    @Override
    public List<Split> splits() throws IOException {
        return reader.splits();
    }

    @Override
    public boolean suppliesVersions() {
        return reader.suppliesVersions();
    }

    @Override
    public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
        reader.scan(split, resumeAfter, sink);
    }

    @Override
    public InputStream openContent(String sha256) throws IOException {
        return reader.openContent(sha256);
    }

    @Override
    public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
        reader.scanContent(maxSize, filter, sink);
    }

    @Override
    public void prepareWorkerThread() {
        reader.prepareWorkerThread();
    }

    private synchronized void releaseQuietly() {
        try {
            closeOnce();
        } catch (IOException e) {
            System.err.println("cairn backup: checkpoint " + checkpoint.id() + " not released (" + e.getMessage()
                    + "); the service releases it when its lease ends at " + checkpoint.expiresAt());
        }
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            Runtime.getRuntime().removeShutdownHook(releaseOnExit);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to; closing here is harmless, closeOnce is idempotent.
        }
        closeOnce();
    }

    private void closeOnce() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            reader.close();
        } finally {
            admin.release(checkpoint.id());
        }
    }
}
