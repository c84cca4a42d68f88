package dev.cairn.backup.restore;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import java.io.IOException;

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

    @Override
    void close() throws IOException;
}
