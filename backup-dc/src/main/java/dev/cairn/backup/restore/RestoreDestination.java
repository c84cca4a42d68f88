package dev.cairn.backup.restore;

import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;

/** Where a restore writes: an object store (embedded, Cassandra) or an S3 endpoint. Thread-safe. */
public interface RestoreDestination extends AutoCloseable {

    String describe();

    /** Whether the bucket exists and holds at least one object. */
    boolean bucketHasObjects(String bucket) throws IOException;

    /** Creates the bucket with the backed-up settings when it does not exist. */
    void ensureBucket(BucketInfo bucket) throws IOException;

    /** Writes the object with the row's metadata, replacing any object of that key. */
    void put(String bucket, ObjectInfo row, ContentSource content) throws IOException;

    @Override
    void close() throws IOException;
}
