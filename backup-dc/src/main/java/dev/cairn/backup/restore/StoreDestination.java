package dev.cairn.backup.restore;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ListQuery;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Restores into an {@link ObjectStore} (a fresh embedded store, a Cassandra keyspace). A store
 * that {@link ObjectStore#restoresVersions() restores versions} (both do) writes every row
 * exactly as recorded ({@link ObjectStore#restoreVersion}): time, version id and place, ETag,
 * part count, checksums, attributes. Another store takes ETag, part count, checksums and
 * attributes as given and sets the time itself, and restores no versioned bucket. The versions
 * of one key go to the store together, their contents read from the archive at once
 * ({@link ContentReadAhead}) while the store writes them in turn.
 */
public final class StoreDestination implements RestoreDestination {
    private final ObjectStore store;
    private final String description;
    private final AutoCloseable owned;
    private final ContentReadAhead readAhead;

    public StoreDestination(ObjectStore store, String description, AutoCloseable owned) {
        this(store, description, owned, true);
    }

    /** {@code readAhead} false: a key's contents are read as the store writes each (for benchmarks only). */
    public StoreDestination(ObjectStore store, String description, AutoCloseable owned, boolean readAhead) {
        this.store = store;
        this.description = description;
        this.owned = owned;
        this.readAhead = readAhead ? new ContentReadAhead() : null;
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
        BucketInfo b = store.bucket(bucket);
        if (b == null) {
            return false;
        }
        if (b.versioning() != Versioning.UNVERSIONED) {
            return !store.listObjectVersions(bucket, new VersionQuery("", null, null, null, 1)).versions().isEmpty();
        }
        return !store.listObjects(bucket, new ListQuery("", null, null, 1)).objects().isEmpty();
    }

    @Override
    public void ensureBucket(BucketInfo bucket) throws IOException {
        BucketInfo existing = store.bucket(bucket.name());
        if (existing == null) {
            try {
                store.createBucket(bucket.name(), bucket.acl(), bucket.createdMillis());
            } catch (StoreException e) {
                if (e.reason() != StoreException.Reason.BUCKET_EXISTS) {
                    throw e;
                }
            }
        }
        if (bucket.versioning() != Versioning.UNVERSIONED
                && (existing == null || existing.versioning() != bucket.versioning())) {
            store.setBucketVersioning(bucket.name(), bucket.versioning());
        }
        for (var document : bucket.documents().entrySet()) {
            if (existing == null || !document.getValue().equals(existing.document(document.getKey()))) {
                store.setBucketDocument(dev.cairn.store.BucketDocument.of(bucket.name(), document.getKey(),
                        document.getValue()));
            }
        }
    }

    @Override
    public boolean restoresVersions() {
        return store.restoresVersions();
    }

    @Override
    public void put(BackupRow row, ContentSource content) throws IOException {
        if (store.restoresVersions()) {
            VersionRecord record = row.isVersion() ? row.version()
                    : new VersionRecord(ObjectVersion.of(row.info(), true), null, row.partSizes());
            store.restoreVersion(row.bucket(), record, content);
            return;
        }
        if (row.isVersion()) {
            throw new IOException(description + " cannot restore object versions (" + row.bucket() + "/" + row.key() + ")");
        }
        ObjectInfo o = row.info();
        store.putObject(PutRequest.of(row.bucket(), o.key(), content, o.etag()).withAttributes(o.attributes())
                .withPartCount(o.partCount()).withChecksums(o.checksums()));
    }

    @Override
    public void putVersions(List<BackupRow> rows, List<ContentSource> contents) throws IOException {
        if (rows.isEmpty() || !store.restoresVersions()) {
            RestoreDestination.super.putVersions(rows, contents);
            return;
        }
        List<VersionRecord> records = new ArrayList<>();
        for (BackupRow row : rows) {
            if (!row.isVersion() || !row.bucket().equals(rows.get(0).bucket()) || !row.key().equals(rows.get(0).key())) {
                throw new IllegalArgumentException("putVersions takes the versions of one key: " + row.bucket() + "/" + row.key());
            }
            records.add(row.version());
        }
        if (readAhead == null || rows.size() == 1) {
            store.restoreVersions(rows.get(0).bucket(), records, contents);
            return;
        }
        try (ContentReadAhead.Held held = readAhead.readAhead(contents)) {
            store.restoreVersions(rows.get(0).bucket(), records, held.contents);
        }
    }

    @Override
    public void close() throws IOException {
        if (readAhead != null) {
            readAhead.close();
        }
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
