package dev.cairn.backup.source;

import dev.cairn.backup.report.SplitRead;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.List;

/**
 * A source that passes every call to another, the interface's default methods included, so that
 * a test's wrapper overrides only what it changes. A default left to the interface would change
 * the wrapped source silently: {@link #scanContent} left out turns the backup's content phase off,
 * {@link #suppliesVersions} left out makes a run refuse versioned buckets.
 */
public class ForwardingBackupSource implements BackupSource {
    protected final BackupSource inner;

    public ForwardingBackupSource(BackupSource inner) {
        this.inner = inner;
    }

    @Override
    public String describe() {
        return inner.describe();
    }

    @Override
    public String resumeKey() {
        return inner.resumeKey();
    }

    @Override
    public String heldOutside() {
        return inner.heldOutside();
    }

    @Override
    public boolean releaseLeftBehind(String heldOutside) throws IOException {
        return inner.releaseLeftBehind(heldOutside);
    }

    @Override
    public List<BucketInfo> buckets() throws IOException {
        return inner.buckets();
    }

    @Override
    public boolean suppliesVersions() {
        return inner.suppliesVersions();
    }

    @Override
    public List<Split> splits() throws IOException {
        return inner.splits();
    }

    @Override
    public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
        inner.scan(split, resumeAfter, sink);
    }

    @Override
    public InputStream openContent(String sha256) throws IOException {
        return inner.openContent(sha256);
    }

    @Override
    public void scanContent(long maxSize, ContentFilter filter, ContentSink sink) throws IOException {
        inner.scanContent(maxSize, filter, sink);
    }

    @Override
    public void prepareWorkerThread() {
        inner.prepareWorkerThread();
    }

    @Override
    public List<SplitRead> splitReads() {
        return inner.splitReads();
    }

    @Override
    public void logSplitReadsTo(PrintStream log) {
        inner.logSplitReadsTo(log);
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }
}
