package dev.cairn.backup.source.embedded;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.Hex;
import dev.cairn.store.Versioning;
import dev.cairn.store.embedded.CheckpointScan;
import dev.cairn.store.embedded.ScanOptions;
import dev.cairn.store.embedded.ScanPriority;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A backup source over an engine directory that nothing writes (a checkpoint), opened for reading
 * by the object store ({@link CheckpointScan}): with {@code scan} reads, no cache is filled;
 * {@code bytesPerSecond} (0: unlimited) throttles rows, their part layouts and content together;
 * {@code idle} puts each reading thread, and each thread the job works for it on, at idle I/O and
 * CPU priority. {@link EmbeddedSource} wraps it around a checkpoint of the running service; the
 * benchmark reads its seeded store directory with it, the same read path.
 *
 * <p>Splits: one per bucket, {@code bucket-<name>}, or {@code versions-<name>} for a bucket whose
 * versioning is configured, whose every version is read (the store's version scan), so a run
 * resumed after the bucket's versioning changed does not resume a split of the other kind. A
 * position is the hex UTF-8 of the last key; in a {@code versions-} split, followed by {@code /}
 * and the hex of the last version's sort id (empty for none).
 * Thread-safety: safe for concurrent scans and content reads.
 */
public final class CheckpointReader implements BackupSource {
    private static final String SPLIT_PREFIX = "bucket-";
    /** The split of a bucket whose versioning is configured: every version of its keys. */
    private static final String VERSIONS_SPLIT_PREFIX = "versions-";
    /** Threads hashing and packing content read in storage order, while one thread reads. */
    static final int CONTENT_WORKERS = 2;

    private final CheckpointScan checkpoint;
    private final String description;

    private CheckpointReader(CheckpointScan checkpoint, String description) {
        this.checkpoint = checkpoint;
        this.description = description;
    }

    /** Opens {@code directory} read-only; nothing may write it while this is open. */
    public static CheckpointReader open(Path directory, boolean scan, long bytesPerSecond, boolean idle,
                                        String description) throws IOException {
        ScanOptions options = new ScanOptions(scan, bytesPerSecond, idle ? ScanPriority.IDLE : ScanPriority.NORMAL);
        return new CheckpointReader(CheckpointScan.open(directory, options), description);
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public List<BucketInfo> buckets() throws IOException {
        return checkpoint.buckets();
    }

    @Override
    public List<Split> splits() throws IOException {
        List<Split> out = new ArrayList<>();
        for (BucketInfo b : checkpoint.buckets()) {
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
        String bucket = split.id().substring(SPLIT_PREFIX.length());
        String after = resumeAfter == null ? null : new String(Hex.decode(resumeAfter), StandardCharsets.UTF_8);
        checkpoint.scan(bucket, after, (row, partSizes) ->
                sink.accept(bucket, row, partSizes, Hex.encode(row.key().getBytes(StandardCharsets.UTF_8))));
    }

    private void scanVersions(String bucket, String resumeAfter, RowSink sink) throws IOException {
        BucketInfo info = checkpoint.buckets().stream().filter(b -> b.name().equals(bucket)).findFirst()
                .orElseThrow(() -> new IOException("bucket " + bucket + " is not in " + description));
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
        checkpoint.scanVersions(bucket, info.versioning(), afterKey, afterOrder, v -> {
            String position = Hex.encode(v.version().key().getBytes(StandardCharsets.UTF_8)) + "/"
                    + (v.order() == null ? "" : Hex.encode(v.order()));
            sink.acceptVersion(bucket, v, position);
        });
    }

    @Override
    public InputStream openContent(String sha256) throws IOException {
        return checkpoint.openContent(sha256);
    }

    /**
     * Single-chunk content in the order the checkpoint's value files hold it, throttled like the
     * rest: read on a thread of its own, handed to {@link #CONTENT_WORKERS} threads that call the
     * sink ({@link ContentFanOut}); all of them at the checkpoint's priority, the caller's thread
     * keeps its own.
     */
    @Override
    public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
        ContentFanOut.run(CONTENT_WORKERS, checkpoint.priority(), reading -> checkpoint.scanSmallContent(
                (sha256, size) -> size <= maxSize && filter.wants(sha256, size),
                new dev.cairn.store.embedded.EmbeddedScanner.ContentVisitor() {
                    @Override
                    public void visit(String sha256, byte[] buffer, int offset, int length) throws IOException {
                        reading.accept(sha256, buffer, offset, length);
                    }

                    @Override
                    public byte[] spanBuffer(int length) throws IOException {
                        return reading.spanBuffer(length);
                    }

                    @Override
                    public void spanVisited() throws IOException {
                        reading.spanVisited();
                    }
                }), sink);
    }

    @Override
    public void prepareWorkerThread() {
        checkpoint.adoptPriority();
    }

    @Override
    public void close() throws IOException {
        checkpoint.close();
    }
}
