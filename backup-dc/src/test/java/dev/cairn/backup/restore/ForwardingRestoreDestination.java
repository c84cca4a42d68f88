package dev.cairn.backup.restore;

import dev.cairn.backup.archive.BackupRow;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.util.List;

/**
 * A destination that passes every call to another, the interface's default methods included, so
 * that a test's wrapper overrides only what it changes. A default left to the interface would
 * change the wrapped destination silently: {@link #replaysVersions} left out makes a restore into
 * S3 refuse versioned buckets, {@link #recordUploads} left out keeps its multipart uploads out of
 * the restore's state file.
 */
public class ForwardingRestoreDestination implements RestoreDestination {
    protected final RestoreDestination inner;

    public ForwardingRestoreDestination(RestoreDestination inner) {
        this.inner = inner;
    }

    @Override
    public String describe() {
        return inner.describe();
    }

    @Override
    public boolean bucketHasObjects(String bucket) throws IOException {
        return inner.bucketHasObjects(bucket);
    }

    @Override
    public void ensureBucket(BucketInfo bucket) throws IOException {
        inner.ensureBucket(bucket);
    }

    @Override
    public boolean restoresVersions() {
        return inner.restoresVersions();
    }

    @Override
    public void put(BackupRow row, ContentSource content) throws IOException {
        inner.put(row, content);
    }

    @Override
    public void putVersions(List<BackupRow> rows, List<ContentSource> contents) throws IOException {
        inner.putVersions(rows, contents);
    }

    @Override
    public boolean replaysVersions() {
        return inner.replaysVersions();
    }

    @Override
    public void replay(List<BackupRow> newestFirst, List<ContentSource> contents, boolean clearFirst)
            throws IOException {
        inner.replay(newestFirst, contents, clearFirst);
    }

    @Override
    public void replayOnTop(List<BackupRow> newestFirst, List<ContentSource> contents, int below, boolean resume)
            throws IOException {
        inner.replayOnTop(newestFirst, contents, below, resume);
    }

    @Override
    public int versionCount(String bucket, String key) throws IOException {
        return inner.versionCount(bucket, key);
    }

    @Override
    public void setVersioning(String bucket, Versioning versioning) throws IOException {
        inner.setVersioning(bucket, versioning);
    }

    @Override
    public void recordUploads(UploadJournal journal) {
        inner.recordUploads(journal);
    }

    @Override
    public void abortUploads(List<PendingUpload> uploads) throws IOException {
        inner.abortUploads(uploads);
    }

    @Override
    public List<String> warnings() {
        return inner.warnings();
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }
}
