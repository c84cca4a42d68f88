package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.Utf8Order;
import dev.cairn.store.VersionListing;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A versioned bucket's versions in (key, newest first) order, for ListObjectVersions: the walk of
 * {@code directory} (current objects) merged by key with the walk of {@code version_directory}
 * (keys that have {@code versions} rows); each key of the second is one read of its
 * {@code versions} partition. A current object without a {@code versions} row was written before
 * the bucket was versioned: it is the key's newest version, {@code null}. Not thread-safe.
 */
final class CassandraVersionListing implements VersionListing.Cursor {
    private final CassandraTables t;
    private final String bucket;
    private final DirectoryIndex.KeyCursor current;
    private final DirectoryIndex.KeyCursor listed;
    private final ArrayDeque<ObjectVersion> ready = new ArrayDeque<>();
    private DirectoryIndex.Listed nextCurrent;
    private DirectoryIndex.Listed nextListed;

    private CassandraVersionListing(CassandraTables t, String bucket, DirectoryIndex.KeyCursor current,
                                    DirectoryIndex.KeyCursor listed) {
        this.t = t;
        this.bucket = bucket;
        this.current = current;
        this.listed = listed;
        nextCurrent = advance(current);
        nextListed = advance(listed);
    }

    static VersionListing.Seeker seeker(CassandraTables t, String bucket, DirectoryIndex directory,
                                        DirectoryIndex versionKeys) {
        return (key, from) -> new CassandraVersionListing(t, bucket, directory.keys(bucket, key, from),
                versionKeys.keys(bucket, key, from));
    }

    private static DirectoryIndex.Listed advance(DirectoryIndex.KeyCursor c) {
        return c.hasNext() ? c.next() : null;
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && (nextCurrent != null || nextListed != null)) {
            fill();
        }
        return !ready.isEmpty();
    }

    @Override
    public ObjectVersion next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return ready.poll();
    }

    /** Queues every version of the next key. */
    private void fill() {
        String key;
        if (nextListed == null || nextCurrent != null && Utf8Order.compare(nextCurrent.key(), nextListed.key()) <= 0) {
            key = nextCurrent.key();
        } else {
            key = nextListed.key();
        }
        RowFormat.Stored<ObjectInfo> row = null;
        if (nextCurrent != null && nextCurrent.key().equals(key)) {
            row = RowFormat.decodeObject(key, nextCurrent.row());
            nextCurrent = advance(current);
        }
        List<VersionRows.Stored> versions = new ArrayList<>();
        if (nextListed != null && nextListed.key().equals(key)) {
            nextListed = advance(listed);
            for (Row r : t.session.execute(t.read(t.q.selectVersions.bind(bucket, key)).setPageSize(1000))) {
                versions.add(VersionRows.decode(key, r));
            }
        }
        boolean latestTaken = false;
        if (row != null && (versions.isEmpty() || !versions.get(0).wid().equals(row.writeId()))) {
            ready.add(ObjectVersion.of(row.value(), true));
            latestTaken = true;
        }
        for (int i = 0; i < versions.size(); i++) {
            ready.add(versions.get(i).version(key, !latestTaken && i == 0));
        }
    }

    @Override
    public void close() {
        current.close();
        listed.close();
    }
}
