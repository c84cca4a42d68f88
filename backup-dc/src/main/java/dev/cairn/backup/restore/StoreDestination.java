package dev.cairn.backup.restore;

import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ListQuery;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.StoreException;
import java.io.IOException;

/**
 * Restores into an {@link ObjectStore} (a fresh embedded store, a Cassandra keyspace). The store
 * takes the row's ETag, part count, checksums and attributes as given; it sets the time itself.
 */
public final class StoreDestination implements RestoreDestination {
    private final ObjectStore store;
    private final String description;
    private final AutoCloseable owned;

    public StoreDestination(ObjectStore store, String description, AutoCloseable owned) {
        this.store = store;
        this.description = description;
        this.owned = owned;
    }

    public ObjectStore store() {
        return store;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public boolean bucketHasObjects(String bucket) throws IOException {
        return store.bucket(bucket) != null
                && !store.listObjects(bucket, new ListQuery("", null, null, 1)).objects().isEmpty();
    }

    @Override
    public void ensureBucket(BucketInfo bucket) throws IOException {
        if (store.bucket(bucket.name()) == null) {
            try {
                store.createBucket(bucket.name(), bucket.acl());
            } catch (StoreException e) {
                if (e.reason() != StoreException.Reason.BUCKET_EXISTS) {
                    throw e;
                }
            }
        }
    }

    @Override
    public void put(String bucket, ObjectInfo row, ContentSource content) throws IOException {
        store.putObject(bucket, row.key(), row.attributes(), content, row.etag(), row.partCount(), row.checksums(), false);
    }

    @Override
    public void close() throws IOException {
        if (owned != null) {
            try {
                owned.close();
            } catch (IOException | RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
    }
}
