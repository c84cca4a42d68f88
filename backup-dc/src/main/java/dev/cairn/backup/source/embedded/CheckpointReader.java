package dev.cairn.backup.source.embedded;

import dev.cairn.engine.fs.ThreadPriority;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.ReadOptions;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.embedded.EmbeddedScanner;
import dev.cairn.store.embedded.EmbeddedVersionScanner;
import dev.cairn.store.Versioning;
import dev.cairn.store.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads an engine directory that nothing writes (a checkpoint) through a read-only open: with
 * {@code scan} reads, no block cache is filled; {@code bytesPerSecond} (0: unlimited) throttles
 * rows, their part layouts and content together; {@code idle} puts each reading thread in the
 * idle I/O class at nice 19. {@link EmbeddedSource} wraps it around a checkpoint of the running
 * service; the benchmark reads its seeded store directory with it, the same read path.
 *
 * <p>Splits: one per bucket, {@code bucket-<name>}, or {@code versions-<name>} for a bucket whose
 * versioning is configured, whose every version is read ({@link EmbeddedVersionScanner}), so a run
 * resumed after the bucket's versioning changed does not resume a split of the other kind. A
 * position is the hex UTF-8 of the last key; in a {@code versions-} split, followed by {@code /}
 * and the hex of the last version's sort id (empty for none).
 * Thread-safety: safe for concurrent scans and content reads.
 */
public final class CheckpointReader implements BackupSource {
    private static final long ROW_BYTES_ESTIMATE = 160;
    private static final String SPLIT_PREFIX = "bucket-";
    /** Threads hashing and packing content read in storage order, while one thread reads. */
    static final int CONTENT_WORKERS = 2;

    private final Engine engine;
    private final EmbeddedScanner scanner;
    private final EmbeddedVersionScanner versionScanner;
    private final ReadRate rate;
    private final boolean idle;
    private final String description;
    /** The split of a bucket whose versioning is configured: every version of its keys. */
    private static final String VERSIONS_SPLIT_PREFIX = "versions-";

    private CheckpointReader(Engine engine, boolean scan, long bytesPerSecond, boolean idle, String description)
            throws IOException {
        this.engine = engine;
        this.scanner = new EmbeddedScanner(engine, scan ? ReadOptions.SCAN_AROUND_PAGE_CACHE : ReadOptions.DEFAULT);
        this.versionScanner = new EmbeddedVersionScanner(engine, scan ? ReadOptions.SCAN_AROUND_PAGE_CACHE : ReadOptions.DEFAULT);
        this.rate = new ReadRate(bytesPerSecond);
        this.idle = idle;
        this.description = description;
    }

    /** Opens {@code directory} read-only; nothing may write it while this is open. */
    public static CheckpointReader open(Path directory, boolean scan, long bytesPerSecond, boolean idle,
                                        String description) throws IOException {
        Engine engine = Engine.openReadOnly(EngineOptions.builder(directory).build());
        try {
            return new CheckpointReader(engine, scan, bytesPerSecond, idle, description);
        } catch (IOException | RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public List<BucketInfo> buckets() throws IOException {
        return scanner.buckets();
    }

    @Override
    public List<Split> splits() throws IOException {
        List<Split> out = new ArrayList<>();
        for (BucketInfo b : scanner.buckets()) {
            out.add(b.versioning() == Versioning.UNVERSIONED ? new Split(SPLIT_PREFIX + b.name(), "bucket " + b.name())
                    : new Split(VERSIONS_SPLIT_PREFIX + b.name(), "versions of bucket " + b.name()));
        }
        return out;
    }

    @Override
    public boolean suppliesVersions() {
        return true;
    }

    @Override
    public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
        if (split.id().startsWith(VERSIONS_SPLIT_PREFIX)) {
            scanVersions(split.id().substring(VERSIONS_SPLIT_PREFIX.length()), resumeAfter, sink);
            return;
        }
        if (!split.id().startsWith(SPLIT_PREFIX)) {
            throw new IllegalArgumentException("not a split of an embedded source: " + split.id());
        }
        prepareThread();
        String bucket = split.id().substring(SPLIT_PREFIX.length());
        String after = resumeAfter == null ? null : new String(Hex.decode(resumeAfter), StandardCharsets.UTF_8);
        scanner.scan(bucket, after, row -> {
            rate.acquire(ROW_BYTES_ESTIMATE + row.key().length());
            sink.accept(bucket, row, Hex.encode(row.key().getBytes(StandardCharsets.UTF_8)));
        });
    }

    private void scanVersions(String bucket, String resumeAfter, RowSink sink) throws IOException {
        BucketInfo info = scanner.buckets().stream().filter(b -> b.name().equals(bucket)).findFirst()
                .orElseThrow(() -> new IOException("bucket " + bucket + " is not in " + description));
        prepareThread();
        String afterKey = null;
        byte[] afterOrder = null;
        if (resumeAfter != null) {
            int slash = resumeAfter.indexOf('/');
            if (slash < 0) {
                throw new IllegalArgumentException("not a position of a versions split: " + resumeAfter);
            }
            afterKey = new String(Hex.decode(resumeAfter.substring(0, slash)), StandardCharsets.UTF_8);
            String order = resumeAfter.substring(slash + 1);
            afterOrder = order.isEmpty() ? null : Hex.decode(order);
        }
        versionScanner.scan(bucket, info.versioning(), afterKey, afterOrder, v -> {
            String key = v.version().key();
            rate.acquire(ROW_BYTES_ESTIMATE + key.length());
            String position = Hex.encode(key.getBytes(StandardCharsets.UTF_8)) + "/"
                    + (v.order() == null ? "" : Hex.encode(v.order()));
            sink.acceptVersion(bucket, v, position);
        });
    }

    @Override
    public long[] partSizes(String bucket, ObjectInfo info, byte[] order) throws IOException {
        if (info.partCount() == 0) {
            return null;
        }
        prepareThread();
        // A version's layout may take a second read, of its versions row (keyed with its place): charged too.
        long row = layoutRowBytes(bucket, info);
        rate.acquire(order == null ? row : 2 * row + order.length);
        return scanner.partSizes(bucket, info, order);
    }

    /** A layout row as docs/object-stores.md lays it out: bucket, 0, key; then format, ETag, part count and 8 bytes a part. */
    private static long layoutRowBytes(String bucket, ObjectInfo info) {
        return bucket.length() + 1 + info.key().length() + 7 + info.etag().length() + 8L * info.partCount();
    }

    /** The bytes charged to the read rate so far (counted only while it limits); for tests. */
    long bytesCharged() {
        return rate.charged();
    }

    @Override
    public InputStream openContent(String sha256) throws IOException {
        prepareThread();
        InputStream in = scanner.openContent(sha256);
        return in == null ? null : rate.throttle(in);
    }

    /**
     * Single-chunk content in the order the checkpoint's value files hold it, throttled like the
     * rest: read on a thread of its own, handed to {@link #CONTENT_WORKERS} threads that call the
     * sink ({@link ContentFanOut}); with idle priority all of them drop to it, the caller's thread
     * keeps its own.
     */
    @Override
    public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
        ContentFanOut.run(CONTENT_WORKERS, idle, reading -> scanSmallContent(maxSize, filter, reading), sink);
    }

    private void scanSmallContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
        scanner.scanSmallContent((sha256, size) -> size <= maxSize && filter.wants(sha256, size),
                new EmbeddedScanner.ContentVisitor() {
                    @Override
                    public void visit(String sha256, byte[] buffer, int offset, int length) throws IOException {
                        rate.acquire(length);
                        sink.accept(sha256, buffer, offset, length);
                    }

                    @Override
                    public byte[] spanBuffer(int length) throws IOException {
                        return sink.spanBuffer(length);
                    }

                    @Override
                    public void spanVisited() throws IOException {
                        sink.spanVisited();
                    }
                });
    }

    @Override
    public void prepareWorkerThread() {
        prepareThread();
    }

    private void prepareThread() {
        if (idle) {
            ThreadPriority.idleCurrentThread();
        }
    }

    @Override
    public void close() throws IOException {
        engine.close();
    }
}
