package dev.cairn.store.embedded;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.engine.ReadOptions;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;

/**
 * An embedded store's engine directory that nothing writes (a checkpoint), opened read-only for a
 * full traversal such as a backup: the buckets, each bucket's object rows (or every version of
 * its keys) with the part sizes of multipart objects, and content by digest or in the order the
 * engine stores it. Reads as {@link ScanOptions} say: around the caches or through them, at a
 * bounded rate that rows, part layouts and content share, at a priority — that of every thread
 * that reads here, and of the threads the caller puts at it ({@link #adoptPriority}) to work on
 * what was read. Rows are decoded by the store's own decoders ({@link EmbeddedScanner},
 * {@link EmbeddedVersionScanner}).
 *
 * <p>Thread-safety: safe for concurrent scans and content reads.
 */
public final class CheckpointScan implements AutoCloseable {
    /** What an object row costs the read rate besides its key: its record, roughly. */
    private static final long ROW_BYTES_ESTIMATE = 160;

    private final Engine engine;
    private final EmbeddedScanner scanner;
    private final EmbeddedVersionScanner versionScanner;
    private final ReadRate rate;
    private final ScanPriority priority;

    /** Receives the versions of a bucket's keys, multipart ones with their part sizes. */
    @FunctionalInterface
    public interface VersionVisitor {
        void visit(VersionRecord version) throws IOException;
    }

    private CheckpointScan(Engine engine, ScanOptions options) throws IOException {
        ReadOptions read = options.aroundCaches() ? ReadOptions.SCAN_AROUND_PAGE_CACHE : ReadOptions.DEFAULT;
        this.engine = engine;
        this.scanner = new EmbeddedScanner(engine, read);
        this.versionScanner = new EmbeddedVersionScanner(engine, read);
        this.rate = new ReadRate(options.bytesPerSecond());
        this.priority = options.priority();
    }

    /** Opens the engine directory {@code engineDir} read-only; nothing may write it while this is open. */
    public static CheckpointScan open(Path engineDir, ScanOptions options) throws IOException {
        Engine engine = Engine.openReadOnly(EngineOptions.builder(engineDir).build());
        try {
            return new CheckpointScan(engine, options);
        } catch (IOException | RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    /** Every bucket with its settings, in UTF-8 order of names. */
    public List<BucketInfo> buckets() throws IOException {
        return scanner.buckets();
    }

    /**
     * Visits the object rows of {@code bucket} in UTF-8 key order, after {@code afterKey} when not
     * null, each with its part sizes ({@link EmbeddedScanner.RowVisitor}).
     */
    public void scan(String bucket, String afterKey, EmbeddedScanner.RowVisitor visitor) throws IOException {
        adoptPriority();
        scanner.scan(bucket, afterKey, (row, partSizes) -> {
            rate.acquire(ROW_BYTES_ESTIMATE + row.key().length() + (row.partCount() == 0 ? 0 : layoutRowBytes(bucket, row)));
            visitor.visit(row, partSizes);
        });
    }

    /**
     * Visits every version of {@code bucket}'s keys, whose versioning is {@code versioning}, in
     * (key, newest first) order after the version of {@code afterKey} at {@code afterOrder}
     * ({@link EmbeddedVersionScanner#scan}); a multipart object version with its part sizes when
     * they are recorded and describe it.
     */
    public void scanVersions(String bucket, Versioning versioning, String afterKey, byte[] afterOrder,
                             VersionVisitor visitor) throws IOException {
        adoptPriority();
        versionScanner.scan(bucket, versioning, afterKey, afterOrder, v -> {
            rate.acquire(ROW_BYTES_ESTIMATE + v.version().key().length() + layoutBytes(bucket, v));
            visitor.visit(v);
        });
    }

    /** A version's layout may take a second read, of its versions row (keyed with its place): charged too. */
    private static long layoutBytes(String bucket, VersionRecord v) {
        ObjectVersion version = v.version();
        if (version.deleteMarker() || version.info().partCount() == 0) {
            return 0;
        }
        long row = layoutRowBytes(bucket, version.info());
        return v.order() == null ? row : 2 * row + v.order().length;
    }

    /** A layout row as docs/service.md lays it out: bucket, 0, key; then format, ETag, part count and 8 bytes a part. */
    private static long layoutRowBytes(String bucket, ObjectInfo info) {
        return bucket.length() + 1 + info.key().length() + 7 + info.etag().length() + 8L * info.partCount();
    }

    /** The content with this digest, read as consumed at the scan's rate; null when the store holds none. Close it. */
    public InputStream openContent(String sha256) throws IOException {
        adoptPriority();
        InputStream in = scanner.openContent(sha256);
        return in == null ? null : rate.throttle(in);
    }

    /**
     * Visits single-chunk content in the order the checkpoint's value files hold it, at the scan's
     * rate ({@link EmbeddedScanner#scanSmallContent}: the bytes are checked by the engine's checksum
     * only).
     */
    public void scanSmallContent(EmbeddedScanner.ContentFilter filter, EmbeddedScanner.ContentVisitor visitor)
            throws IOException {
        adoptPriority();
        scanner.scanSmallContent(filter, new EmbeddedScanner.ContentVisitor() {
            @Override
            public void visit(String sha256, byte[] buffer, int offset, int length) throws IOException {
                rate.acquire(length);
                visitor.visit(sha256, buffer, offset, length);
            }

            @Override
            public byte[] spanBuffer(int length) throws IOException {
                return visitor.spanBuffer(length);
            }

            @Override
            public void spanVisited() throws IOException {
                visitor.spanVisited();
            }
        });
    }

    /** The priority this scan reads at. */
    public ScanPriority priority() {
        return priority;
    }

    /** Puts the calling thread at this scan's priority: for threads that work on what it read. */
    public void adoptPriority() {
        priority.applyToCurrentThread();
    }

    /** The bytes charged to the read rate so far (counted only while it limits); for tests. */
    long bytesCharged() {
        return rate.charged();
    }

    @Override
    public void close() throws IOException {
        engine.close();
    }
}
