package dev.cairn.backup.source;

import dev.cairn.backup.report.SplitRead;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.VersionRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * Where a backup reads: the buckets, then the object rows in splits that are scanned
 * independently (several in flight) and each resumed from the last position the job recorded,
 * each row with what the source holds of it besides its content (a multipart object's part
 * sizes), then the content of each row by its SHA-256. The job never asks the source about a row
 * it was handed.
 *
 * <p>A source reads an isolated copy of the data: Cassandra's datacenter {@code backup}, or an
 * engine checkpoint opened read-only. It reads around every cache.
 *
 * <p>Thread-safety: {@link #scan} and {@link #openContent} may be called from several threads
 * at once; {@link #splits} and {@link #buckets} are called once per run, before any scan.
 */
public interface BackupSource extends AutoCloseable {

    /** A short description for reports and logs, e.g. {@code cassandra dc=backup keyspace=cairn}. */
    String describe();

    /**
     * What identifies the data read, for resuming: an unfinished run whose source had the same key
     * (and the same splits) is resumed. By default the description; a source that reads a new copy
     * each run (a checkpoint) names the store it copies instead.
     */
    default String resumeKey() {
        return describe();
    }

    /** Every bucket with its settings (versioning included), by name. */
    List<BucketInfo> buckets() throws IOException;

    /**
     * Whether {@link #scan} delivers the versions of a bucket whose versioning is configured
     * ({@link RowSink#acceptVersion}). A run refuses to back up such a bucket from a source that
     * does not, rather than record its current objects only. A source adds versions by scanning
     * them in the order the sink expects and returning true; nothing else changes.
     */
    default boolean suppliesVersions() {
        return false;
    }

    /**
     * The splits of the row space. For one source (same cluster and keyspace, same checkpoint
     * layout) the ids are stable across runs: a job that was killed resumes a split by its id.
     */
    List<Split> splits() throws IOException;

    /**
     * Calls {@code sink} for each object row of {@code split}, in the split's own order, starting
     * after the row whose position is {@code resumeAfter} (null: from the split's start). Rows
     * come paged; the call returns when the split is exhausted, and throws on the first error. In
     * a bucket whose versioning is configured a source that {@link #suppliesVersions} calls
     * {@link RowSink#acceptVersion} instead, once per version of each key, delete markers
     * included, a key's versions newest first and together, so that a position may fall between
     * two versions of one key.
     */
    void scan(Split split, String resumeAfter, RowSink sink) throws IOException;

    /** The content with this lower-case hex SHA-256, or null when the source holds none. Close it. */
    InputStream openContent(String sha256) throws IOException;

    /**
     * Reads content in the order the source stores it, where that costs less than
     * {@link #openContent} per row: an engine checkpoint reads its value files front to back
     * instead of looking up two keys per content. Calls {@code sink} for each content up to
     * {@code maxSize} bytes that {@code filter} wants, from several threads at once, with bytes the
     * caller must still check against the hash; content not passed on here is read by
     * {@link #openContent} as its rows come. By default passes nothing.
     */
    default void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
    }

    /**
     * Called first on each thread the job starts to work for this source (writing content it
     * read), so that a source reading at a low priority can put that work at the same one. By
     * default does nothing.
     */
    default void prepareWorkerThread() {
    }

    /**
     * What this source holds outside the job until it is closed (the service's engine checkpoint),
     * recorded in the archive's lock so that the next run can release it should this job be
     * killed before it closes the source; null (the default) when nothing.
     */
    default String heldOutside() {
        return null;
    }

    /**
     * Releases what a killed job's source held ({@link #heldOutside}), when it is this source's
     * kind and service; does nothing otherwise (the default). Returns true when released here.
     */
    default boolean releaseLeftBehind(String heldOutside) throws IOException {
        return false;
    }

    /**
     * Where each split scanned so far was read from, for the run's report; by default none (a
     * source on one host, where there is nothing to tell).
     */
    default List<SplitRead> splitReads() {
        return List.of();
    }

    /**
     * From now on, prints to {@code log} a {@link SplitRead#line()} as each split's scan ends, for
     * a source that keeps {@link #splitReads}; by default nothing.
     */
    default void logSplitReadsTo(PrintStream log) {
    }

    @Override
    void close() throws IOException;

    /**
     * One independently scanned part of the row space.
     *
     * @param id          stable across runs of the same source; safe as a file name
     * @param description human-readable, e.g. a token range
     */
    record Split(String id, String description) {
    }

    /** Decides on one content by its hash and size, before its bytes are read. */
    @FunctionalInterface
    interface ContentFilter {
        boolean wants(String sha256, long size);
    }

    /**
     * Receives the bytes of one content, as read and not yet checked; the buffer is valid during
     * the call only, unless the sink supplied it by {@link #spanBuffer}.
     */
    @FunctionalInterface
    interface ContentSink {
        void accept(String sha256, byte[] buffer, int offset, int length) throws IOException;

        /**
         * A buffer of at least {@code length} bytes for the source to read its next run of
         * neighbouring contents into, so that they reach the sink without a copy; null (the
         * default): the source's own. The contents passed until {@link #spanVisited()} lie in it,
         * and the source does not touch it after that. A source may never ask. A source that
         * reads ahead asks for the buffers of up to two more runs before it passes the first run's
         * contents; runs are passed in the order asked, and {@link #spanVisited()} ends the oldest.
         */
        default byte[] spanBuffer(int length) throws IOException {
            return null;
        }

        /** Every content of the oldest run whose buffer was asked for ({@link #spanBuffer}) was passed. */
        default void spanVisited() throws IOException {
        }
    }

    /** Receives the rows of one split. */
    @FunctionalInterface
    interface RowSink {
        /**
         * One object row of a bucket without versioning, with its part sizes as the source read
         * them with the row.
         *
         * @param partSizes null: not multipart, or no layout recorded
         * @param position  opaque; passing it as {@code resumeAfter} resumes the split after this row
         */
        void accept(String bucket, ObjectInfo row, long[] partSizes, String position) throws IOException;

        /**
         * One version of a key of a bucket whose versioning is configured, with its place
         * ({@link VersionRecord#order()}: the source's own bytes, ascending newest first within
         * the key; null only for a key's one version written before versioning was configured)
         * and, for a multipart object version, its part sizes as the source read them.
         *
         * @param position as {@link #accept}'s
         */
        default void acceptVersion(String bucket, VersionRecord version, String position) throws IOException {
            throw new UnsupportedOperationException("this sink takes no versions");
        }
    }
}
