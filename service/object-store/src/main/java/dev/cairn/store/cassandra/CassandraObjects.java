package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.CassandraKeys.KIND_OBJECT;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.Listing;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreStats;
import dev.cairn.store.StoreUnavailableException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Object rows: table {@code objects} ((bucket, key) → one blob cell, {@link RowFormat}) and the
 * object's entry in the listing index ({@link DirectoryIndex}); writing, reading, deleting and
 * listing them.
 *
 * <p>Takes no lock. A row is written with an explicit timestamp taken from its {@link WriteId},
 * in one logged batch with its directory entry, so concurrent writes of a key never mix and the
 * greatest write id wins in both; the write is recorded first and settled after
 * ({@link CassandraContent}). A read that finds the row's content reclaimed reads the row again
 * at quorum. Thread-safe.
 */
final class CassandraObjects {
    private static final int MAX_READ_ATTEMPTS = 8;

    private final CassandraTables t;
    private final CassandraBuckets buckets;
    private final CassandraContent content;
    private final CassandraReaders readers;
    private final DirectoryIndex directory;
    private final AtomicLong logicalBytes = new AtomicLong();
    private final AtomicLong physicalBytes = new AtomicLong();

    CassandraObjects(CassandraTables t, CassandraBuckets buckets, CassandraContent content, CassandraReaders readers,
                     DirectoryIndex directory) {
        this.t = t;
        this.buckets = buckets;
        this.content = content;
        this.readers = readers;
        this.directory = directory;
    }

    /** Writes an object row and records its content's reference. The caller checked the bucket. */
    ObjectInfo write(String bucket, String key, ObjectAttributes attributes, ContentSource source,
                     String etag, int partCount, Map<String, String> checksums, boolean onlyIfAbsent)
            throws IOException {
        if (onlyIfAbsent && read(bucket, key, t.protocolCl) != null) {
            throw new StoreException(StoreException.Reason.PRECONDITION_FAILED, key + " exists");
        }
        directory.writeMarkers(bucket, key);
        WriteId wid = t.ids.next();
        content.recordWrite(bucket, KIND_OBJECT, key, wid, source.sha256());
        CassandraContent.Stored stored = content.store(source);
        ObjectInfo info = new ObjectInfo(key, source.sha256(), source.size(), etag, attributes,
                wid.timestampMicros() / 1000, partCount, checksums);
        ByteBuffer row = RowFormat.encodeObject(wid, stored.generation(), info);
        DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
        long ts = wid.timestampMicros();
        BatchStatement batch = BatchStatement.newInstance(BatchType.LOGGED,
                t.q.insertObject.bind(bucket, key, row).setQueryTimestamp(ts),
                t.q.insertEntry.bind(bucket, entry.dir(), entry.shard(), entry.name(), row).setQueryTimestamp(ts));
        // A batch carries one timestamp for all its statements: theirs are ignored.
        t.session.execute(batch.setQueryTimestamp(ts).setConsistencyLevel(t.writeCl).setIdempotent(true));
        settle(bucket, key, wid);
        logicalBytes.addAndGet(source.size());
        if (stored.fresh()) {
            physicalBytes.addAndGet(source.size());
        }
        return info;
    }

    /** After writing: removes the recorded writes of this key that can no longer win. */
    private void settle(String bucket, String key, WriteId mine) {
        // Read in parallel: whatever the order, a write ordered before the row's can never win.
        CompletableFuture<AsyncResultSet> writes = t.session.executeAsync(
                t.protocol(t.q.selectWrites.bind(bucket, KIND_OBJECT, key))).toCompletableFuture();
        RowFormat.Stored<ObjectInfo> current = read(bucket, key, t.protocolCl);
        Iterable<Row> recorded = CassandraTables.allRows(CassandraTables.join(writes));
        if (current == null) {
            // A delete with a timestamp at or after this write shadows it.
            content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.timestampMicros() <= mine.timestampMicros(), recorded);
        } else {
            WriteId winner = current.writeId();
            content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.compareTo(winner) < 0, recorded);
        }
    }

    RowFormat.Stored<ObjectInfo> read(String bucket, String key, ConsistencyLevel cl) {
        Row r = t.session.execute(t.q.selectObject.bind(bucket, key).setConsistencyLevel(cl).setIdempotent(true)).one();
        return r == null ? null : RowFormat.decodeObject(key, r.getByteBuffer("row"));
    }

    ObjectInfo head(String bucket, String key) throws StoreException {
        RowFormat.Stored<ObjectInfo> row = read(bucket, key, t.readCl);
        if (row == null) {
            buckets.require(bucket);
            return null;
        }
        return row.value();
    }

    ObjectRead get(String bucket, String key) throws IOException {
        ConsistencyLevel cl = t.readCl;
        for (int attempt = 1; ; attempt++) {
            RowFormat.Stored<ObjectInfo> row = read(bucket, key, cl);
            if (row == null) {
                buckets.require(bucket);
                return null;
            }
            ObjectRead read = readers.object(row.value(), row.generation());
            if (read != null) {
                return read;
            }
            // The row read is older than the content's reclamation: read it again at quorum.
            if (attempt == MAX_READ_ATTEMPTS) {
                throw new StoreUnavailableException("the content of " + bucket + "/" + key
                        + " changed during " + attempt + " reads", null);
            }
            cl = t.protocolCl;
            CassandraReaders.pause(attempt);
        }
    }

    ObjectInfo delete(String bucket, String key) throws StoreException {
        RowFormat.Stored<ObjectInfo> old = read(bucket, key, t.protocolCl);
        if (old == null) {
            buckets.require(bucket);
            return null;
        }
        long ts = t.ids.nextMicros();
        DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
        BatchStatement batch = BatchStatement.newInstance(BatchType.LOGGED,
                t.q.deleteObject.bind(bucket, key).setQueryTimestamp(ts),
                t.q.deleteEntry.bind(bucket, entry.dir(), entry.shard(), entry.name()).setQueryTimestamp(ts));
        t.session.execute(batch.setQueryTimestamp(ts).setConsistencyLevel(t.writeCl).setIdempotent(true));
        content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.timestampMicros() <= ts);
        return old.value();
    }

    /** Refuses with BUCKET_NOT_EMPTY when the bucket lists a key. */
    void requireNone(String bucket) throws IOException {
        try (Listing.Cursor c = directory.seeker(bucket, "").seek("", Listing.From.AT)) {
            if (c.hasNext()) {
                throw new StoreException(StoreException.Reason.BUCKET_NOT_EMPTY, bucket);
            }
        }
    }

    ListPage list(String bucket, ListQuery query) throws IOException {
        buckets.require(bucket);
        return Listing.page(query, directory.seeker(bucket, query.prefix()));
    }

    StoreStats stats() {
        return new StoreStats(logicalBytes.get(), physicalBytes.get());
    }
}
