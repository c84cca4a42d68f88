package dev.cairn.backup.store;

import dev.cairn.backup.source.BackupSource;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentRead;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A source that reads any {@link ObjectStore} through its public interface: one split per bucket,
 * listed in pages in key order, a multipart object with its part sizes; a split's position is
 * the last key. Closing it closes
 * {@code owned} (the store and whatever it runs on), when given.
 */
public final class ObjectStoreSource implements BackupSource {
    public static final int DEFAULT_PAGE_SIZE = 1000;
    /** Split ids are the bucket name with this prefix (bucket names are safe as file names). */
    static final String SPLIT_PREFIX = "bucket-";

    private final ObjectStore store;
    private final String description;
    private final int pageSize;
    private final AutoCloseable owned;

    public ObjectStoreSource(ObjectStore store, String description, int pageSize, AutoCloseable owned) {
        this.store = store;
        this.description = description;
        this.pageSize = pageSize;
        this.owned = owned;
    }

    @Override
    public String describe() {
        return description;
    }

    @Override
    public List<BucketInfo> buckets() throws IOException {
        return store.listBuckets();
    }

    @Override
    public List<Split> splits() throws IOException {
        List<Split> splits = new ArrayList<>();
        for (BucketInfo b : store.listBuckets()) {
            splits.add(new Split(SPLIT_PREFIX + b.name(), "bucket " + b.name()));
        }
        return splits;
    }

    @Override
    public void scan(Split split, String resumeAfter, RowSink sink) throws IOException {
        if (!split.id().startsWith(SPLIT_PREFIX)) {
            throw new IllegalArgumentException("not a split of this source: " + split.id());
        }
        String bucket = split.id().substring(SPLIT_PREFIX.length());
        String after = resumeAfter;
        ListPage page;
        do {
            page = store.listObjects(bucket, new ListQuery("", null, after, pageSize));
            for (ObjectInfo o : page.objects()) {
                sink.accept(bucket, o, o.partCount() == 0 ? null : store.partSizes(bucket, o.key(), o), o.key());
            }
            after = page.lastReturned();
        } while (page.truncated() && after != null);
    }

    @Override
    public InputStream openContent(String sha256) throws IOException {
        ContentRead read = store.getContent(sha256);
        return read == null ? null : read.openAll();
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
