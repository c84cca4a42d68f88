package dev.cairn.backup.restore;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import java.io.IOException;
import java.util.List;

/** Where a restore writes: an object store (embedded, Cassandra) or an S3 endpoint. Thread-safe. */
public interface RestoreDestination extends AutoCloseable {

    String describe();

    /** Whether the bucket exists and holds at least one object. */
    boolean bucketHasObjects(String bucket) throws IOException;

    /** Creates the bucket with the backed-up settings when it does not exist. */
    void ensureBucket(BucketInfo bucket) throws IOException;

    /**
     * Whether it restores the rows of a versioned bucket ({@link BackupRow#isVersion}): each
     * version in its place, with its id and time. A restore refuses a versioned bucket into a
     * destination that does not, before writing anything.
     */
    boolean restoresVersions();

    /**
     * Writes one row: an object with the row's metadata, replacing any object of that key; or one
     * version of a key, in its place among the key's versions, replacing the version of that place.
     * Rows of one key may be written in any order, and again. {@code content} is null for a delete marker.
     */
    void put(BackupRow row, ContentSource content) throws IOException;

    /**
     * Writes versions of one key, each in its place, as {@link #put} writes each; a destination
     * may write them together (a Cassandra keyspace: under one lease of the key). {@code contents}
     * holds each row's content (null for a delete marker), in the order of {@code rows}.
     */
    default void putVersions(List<BackupRow> rows, List<ContentSource> contents) throws IOException {
        for (int i = 0; i < rows.size(); i++) {
            put(rows.get(i), contents.get(i));
        }
    }

    /**
     * Whether it writes the versions of a key by replaying them, oldest first, through
     * {@link #replay} (an S3 endpoint, where no client chooses a version's id or time) rather than
     * each in its place through {@link #put}.
     */
    default boolean replaysVersions() {
        return false;
    }

    /**
     * Writes every version of one key (all of the key's rows, {@link BackupRow#isVersion}),
     * oldest first, as new versions. {@code contents} holds each row's content (null for a delete
     * marker), in the order of {@code newestFirst}. {@code clearFirst}: remove what an interrupted
     * replay of this key left first, so that the key's versions are written once.
     */
    default void replay(List<BackupRow> newestFirst, List<ContentSource> contents, boolean clearFirst)
            throws IOException {
        throw new UnsupportedOperationException(describe() + " does not replay versions");
    }

    /**
     * Writes versions of one key, oldest first, on top of the {@code below} versions it already
     * holds ({@link ReplayPasses}). {@code resume}: the key may hold some of them already, written
     * oldest first by an interrupted run; those are not written again.
     */
    default void replayOnTop(List<BackupRow> newestFirst, List<ContentSource> contents, int below, boolean resume)
            throws IOException {
        throw new UnsupportedOperationException(describe() + " does not replay versions");
    }

    /**
     * How many versions and delete markers the key holds: what a replay into a bucket that may
     * hold other versions records before it writes on top ({@link Restore}).
     */
    default int versionCount(String bucket, String key) throws IOException {
        throw new UnsupportedOperationException(describe() + " does not replay versions");
    }

    /** Sets a bucket's versioning while versions are replayed ({@link ReplayPasses}). */
    default void setVersioning(String bucket, dev.cairn.store.Versioning versioning) throws IOException {
        throw new UnsupportedOperationException(describe() + " does not replay versions");
    }

    /**
     * The journal in which the destination records each multipart upload it starts, before its
     * first part ({@link Restore} keeps it in the restore's state file); given before any write.
     */
    default void recordUploads(UploadJournal journal) {
    }

    /** Aborts the multipart uploads an interrupted restore recorded and did not complete. */
    default void abortUploads(List<PendingUpload> uploads) throws IOException {
        if (!uploads.isEmpty()) {
            throw new IOException(describe() + " starts no multipart uploads, but " + uploads.size() + " are recorded");
        }
    }

    /** What the restore should report it wrote otherwise than recorded (each line counted, with examples). */
    default List<String> warnings() {
        return List.of();
    }

    @Override
    void close() throws IOException;
}
