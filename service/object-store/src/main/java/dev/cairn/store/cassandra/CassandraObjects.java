package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.CassandraKeys.KIND_OBJECT;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ListPage;
import dev.cairn.store.ListQuery;
import dev.cairn.store.Listing;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreStats;
import dev.cairn.store.StoreUnavailableException;
import dev.cairn.store.VersionId;
import dev.cairn.store.Versioning;
import dev.cairn.store.WriteConditions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

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
    private final Settler settler;
    private final KeyLocks locks;
    private final CassandraVersions versions;
    private final AtomicLong logicalBytes = new AtomicLong();
    /** Settles that found a later write or a delete in the row (benchmarks print it). */
    final LongAdder settlesOvertaken = new LongAdder();
    private final AtomicLong physicalBytes = new AtomicLong();

    CassandraObjects(CassandraTables t, CassandraBuckets buckets, CassandraContent content, CassandraReaders readers,
                     DirectoryIndex directory, Settler settler, KeyLocks locks) {
        this.settler = settler;
        this.locks = locks;
        this.t = t;
        this.buckets = buckets;
        this.content = content;
        this.readers = readers;
        this.directory = directory;
        this.versions = new CassandraVersions(t, buckets, content, readers, directory, settler, locks);
    }

    CassandraVersions versions() {
        return versions;
    }

    DirectoryIndex directory() {
        return directory;
    }

    /** The version {@code null} is named so in a versioned bucket (its cell says nothing of versions). */
    private ObjectInfo named(String bucket, ObjectInfo info) {
        if (info.versionId() != null) {
            return info;
        }
        String name = nullVersionName(bucket);
        return name == null ? info : info.withVersionId(name);
    }

    /** What a row without a version id is named: {@link VersionId#NULL} in a versioned bucket, as this node knows it. */
    String nullVersionName(String bucket) {
        Versioning known = buckets.knownVersioning(bucket);
        if (known == null) {
            BucketInfo b = buckets.get(bucket);
            known = b == null ? Versioning.UNVERSIONED : b.versioning();
        }
        return known != Versioning.UNVERSIONED ? VersionId.NULL : null;
    }

    /**
     * Writes an object row and records its content's reference, in three round trips when the
     * content is new: (1) the bucket check, the write recorded, the content's generations and the
     * key's earlier writes read, all at once; (2) the content stored, or a usable generation read
     * again; (3) the row written, in one logged batch with a new generation's {@code contents} row. The write
     * is then durable and answered; the writes it superseded are released after that by the
     * {@link Settler} (docs/cassandra-internals.md, "The queries").
     */
    ObjectInfo write(PutRequest request) throws IOException {
        return write(request, null, -1);
    }

    /**
     * As above; its condition is checked under the key's lease ({@link #writeLeased});
     * {@code partSizes}: the sizes of the parts a multipart object is completed from, or null;
     * {@code lastModified}: the time the row records, epoch millis, as a restore gives it (the write
     * id still orders the write now); -1: the write id's.
     */
    ObjectInfo write(PutRequest request, long[] partSizes, long lastModified) throws IOException {
        String bucket = request.bucket();
        String key = request.key();
        ContentSource source = request.content();
        String etag = request.etag();
        boolean onlyIfAbsent = request.onlyIfAbsent();
        String ifMatch = request.ifMatch();
        Versioning known = buckets.knownVersioning(bucket);
        if (known != null && known != Versioning.UNVERSIONED) {
            ObjectInfo info = versions.write(request, partSizes);
            if (info != null) {
                logicalBytes.addAndGet(source.size());
                return info;
            }
        }
        WriteId wid = t.ids.next();
        String sha = source.sha256();
        boolean conditional = onlyIfAbsent || ifMatch != null;
        CompletableFuture<AsyncResultSet> bucketRow = t.async(t.read(t.q.selectBucket.bind(bucket)));
        CompletableFuture<AsyncResultSet> existing = conditional
                ? t.async(t.protocol(t.q.selectObject.bind(bucket, key))) : null;
        List<CompletableFuture<AsyncResultSet>> markers = directory.writeMarkersAsync(bucket, key);
        // A conditional write records itself under the key only under the lease, with a later write id.
        long recordStamp = t.ids.nextMicros();
        List<CompletableFuture<AsyncResultSet>> recorded = conditional ? List.of(content.holdAsync(sha, wid))
                : content.recordWriteAsync(bucket, KIND_OBJECT, key, wid, sha, recordStamp);
        CompletableFuture<AsyncResultSet> generations = t.async(t.protocol(t.q.selectGenerations.bind(sha)));
        long readStamp = t.ids.nextMicros();
        CompletableFuture<AsyncResultSet> earlier = t.async(t.protocol(t.q.selectWrites.bind(bucket, KIND_OBJECT, key)));
        CassandraTables.joinAll(recorded);
        CassandraTables.joinAll(markers);
        StoreException refused = null;
        Row bucketState = CassandraTables.join(bucketRow).one();
        if (bucketState == null) {
            refused = new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        } else if (CassandraBuckets.of(bucket, bucketState).versioning() != Versioning.UNVERSIONED) {
            // This node's copy of the bucket was older than its versioning: the write is a version.
            buckets.remember(bucket, bucketState);
            if (conditional) {
                content.unhold(sha, wid, true);
            } else {
                content.release(bucket, KIND_OBJECT, key, List.of(new Recorded(wid, sha)));
            }
            ObjectInfo info = versions.write(request, partSizes);
            if (info == null) {
                throw new StoreUnavailableException("bucket " + bucket + " was deleted and created again during a write", null);
            }
            logicalBytes.addAndGet(source.size());
            return info;
        } else if (existing != null) {
            // Fails early when the condition fails already; it is checked again under the lease.
            refused = conditionFailure(key, CassandraTables.join(existing).one(), onlyIfAbsent, ifMatch);
        }
        if (refused != null) {
            if (conditional) {
                content.unhold(sha, wid, true);
            } else {
                content.release(bucket, KIND_OBJECT, key, List.of(new Recorded(wid, sha)));
            }
            throw refused;
        }
        CassandraContent.Stored stored = content.store(source, CassandraTables.allRows(CassandraTables.join(generations)),
                true);
        RowWriter rowWriter = w -> {
            ObjectInfo written = new ObjectInfo(key, sha, source.size(), etag, request.attributes(),
                    lastModified >= 0 ? lastModified : w.timestampMicros() / 1000, request.partCount(),
                    request.checksums());
            writeRow(bucket, key, w, RowFormat.encodeObject(w, stored.generation(), written),
                    partSizes == null ? null : PartLayout.encode(w, sha, partSizes),
                    stored.fresh() ? content.complete(sha, stored) : null);
            return written;
        };
        ObjectInfo info;
        if (!conditional) {
            info = rowWriter.write(wid);
            settler.submit(new Slot(bucket, key), new Answered(wid, sha, recordStamp, earlier, readStamp), group -> settle(bucket, key, group));
        } else {
            try {
                info = writeLeased(bucket, key, wid, sha, onlyIfAbsent, ifMatch, rowWriter);
            } catch (StoreException e) {
                // Refused (condition, or the lease not had): no row names the new generation.
                content.discard(sha, stored);
                content.unhold(sha, wid, true);
                throw e;
            }
        }
        logicalBytes.addAndGet(source.size());
        if (stored.fresh()) {
            physicalBytes.addAndGet(source.size());
        }
        return info;
    }

    /** Writes the object row (and what goes with it) at a write id; returns the row written. */
    private interface RowWriter {
        ObjectInfo write(WriteId wid);
    }

    /**
     * A conditional write's row, under the key's lease ({@link KeyLocks}): the row is read at
     * quorum and checked there, and written with a write id taken under the lease and ordered
     * after the row read, so it orders after every write a previous holder made; of conditional
     * writers racing from one version exactly one wins. That write id is recorded under the key
     * first; the content was held until then by {@code held} ({@link CassandraContent#holdAsync}),
     * which no other writer's settling can release as the record of a write that lost. The key's
     * recorded writes are read again under the lease, so that the settling releases those of the
     * holders before this one too.
     */
    private ObjectInfo writeLeased(String bucket, String key, WriteId held, String sha, boolean onlyIfAbsent,
                                   String ifMatch, RowWriter rowWriter) throws IOException {
        List<Recorded> unused = new ArrayList<>();
        StoreException refused;
        try (KeyLocks.Lease lease = locks.acquire(bucket, key)) {
            WriteId wid = t.ids.next();
            CompletableFuture<AsyncResultSet> current = t.async(t.protocol(t.q.selectObject.bind(bucket, key)));
            long readStamp = t.ids.nextMicros();
            CompletableFuture<AsyncResultSet> writes = t.async(t.protocol(t.q.selectWrites.bind(bucket, KIND_OBJECT, key)));
            CassandraTables.joinAll(content.recordWriteAsync(bucket, KIND_OBJECT, key, wid, sha));
            Row row = CassandraTables.join(current).one();
            refused = conditionFailure(key, row, onlyIfAbsent, ifMatch);
            if (refused == null) {
                WriteId now = row == null ? null : RowFormat.writeIdOf(row.getByteBuffer("row"));
                if (now != null && now.compareTo(wid) >= 0) {
                    // The row read was written with a clock ahead of this one: order after it.
                    unused.add(new Recorded(wid, sha));
                    wid = t.ids.nextAfter(now);
                    content.recordWrite(bucket, KIND_OBJECT, key, wid, sha);
                }
                ObjectInfo info = rowWriter.write(wid);
                WriteId mine = wid;
                settler.submit(() -> {
                    content.unhold(sha, held, true);
                    content.release(bucket, KIND_OBJECT, key, unused);
                    settle(bucket, key, mine, sha, CassandraTables.allRows(CassandraTables.join(writes)), readStamp);
                });
                lease.requireHeld();
                return info;
            }
            unused.add(new Recorded(wid, sha));
        }
        content.release(bucket, KIND_OBJECT, key, unused);
        content.unhold(sha, held, true);
        throw refused;
    }

    /** Why a condition fails on the row as read (null: absent), or null when it holds. */
    private static StoreException conditionFailure(String key, Row row, boolean onlyIfAbsent, String ifMatch) {
        try {
            WriteConditions.check(key, row == null ? null : RowFormat.decodeObject(key, row.getByteBuffer("row")).value(),
                    onlyIfAbsent, ifMatch);
            return null;
        } catch (StoreException e) {
            return e;
        }
    }

    /**
     * The row, its directory entry, its part layout (may be null) and a new generation's
     * {@code contents} row (may be null) in one logged batch at the write id's timestamp: the row
     * never lands without the generation it names.
     */
    private void writeRow(String bucket, String key, WriteId wid, ByteBuffer row, ByteBuffer layout,
                          BatchableStatement<?> generation) {
        DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
        long ts = wid.timestampMicros();
        BatchStatement batch = BatchStatement.newInstance(BatchType.LOGGED,
                t.q.insertObject.bind(bucket, key, row).setQueryTimestamp(ts),
                t.q.insertEntry.bind(bucket, entry.dir(), entry.shard(), entry.name(), row).setQueryTimestamp(ts));
        if (layout != null) {
            batch = batch.add(t.q.insertLayout.bind(bucket, key, layout).setQueryTimestamp(ts));
        }
        if (generation != null) {
            batch = batch.add(generation);
        }
        // A batch carries one timestamp for all its statements: theirs are ignored.
        t.session.execute(batch.setQueryTimestamp(ts).setConsistencyLevel(t.writeCl).setIdempotent(true));
    }

    /**
     * After writing: releases the recorded writes of this key that can no longer win. Every write
     * ordered before this one, read before this row was written, is dead as soon as the row is
     * acknowledged; they are released while the row is read back, which says whether this write
     * itself still stands. When it does not (a later write or a delete won meanwhile), the key's
     * writes are read again and settled against the winner.
     */
    private void settle(String bucket, String key, WriteId mine, String sha, List<Row> earlier, long readStamp) {
        settleAgainst(bucket, key, mine, mine, Recorded.all(earlier), List.of(), List.of(new Recorded(mine, sha)), readStamp);
    }

    /** An object's slot, whose queued settles run as one. */
    private record Slot(String bucket, String key) {
    }

    /** An answered write, the stamp of its record, its read of the slot's writes and the stamp taken before it. */
    private record Answered(WriteId wid, String sha256, long recordStamp, CompletableFuture<AsyncResultSet> earlier,
                            long readStamp) {
        Recorded recorded() {
            return new Recorded(wid, sha256, recordStamp);
        }
    }

    /**
     * Settles answered writes of one slot together, with one read of the row back. Each of them
     * is acknowledged, so every write ordered before the earliest of them can never be the row
     * again: those are released at once, as alone. The latest is acknowledged too, so the others,
     * and what any of them read ordered before it, can never be the row again either; those are
     * released as a write that lost is ({@link #settleAgainst}: only while the bucket is
     * unversioned).
     */
    private void settle(String bucket, String key, List<Answered> group) {
        WriteId latest = null;
        WriteId first = null;
        long readStamp = Long.MIN_VALUE;
        List<Recorded> own = new ArrayList<>();
        for (Answered a : group) {
            latest = latest == null || a.wid().compareTo(latest) > 0 ? a.wid() : latest;
            first = first == null || a.wid().compareTo(first) < 0 ? a.wid() : first;
            readStamp = Math.max(readStamp, a.readStamp());
            own.add(a.recorded());
        }
        Map<WriteId, Recorded> dead = new LinkedHashMap<>();
        Map<WriteId, Recorded> superseded = new LinkedHashMap<>();
        for (Answered a : group) {
            for (Recorded w : Recorded.all(CassandraTables.allRows(
                    CassandraTables.join(a.earlier())))) {
                if (w.wid().compareTo(first) < 0) {
                    dead.putIfAbsent(w.wid(), w);
                } else if (w.wid().compareTo(latest) < 0) {
                    superseded.putIfAbsent(w.wid(), w);
                }
            }
        }
        for (Recorded w : own) {
            if (w.wid().compareTo(latest) < 0) {
                superseded.put(w.wid(), w);
            }
        }
        settleAgainst(bucket, key, latest, first, dead.values(), superseded.values(), own, readStamp);
    }

    /**
     * Releases {@code dead} (every one ordered before a write acknowledged), reads the row back,
     * and releases what lost to the row found: {@code superseded} (ordered before {@code mine})
     * when {@code mine} is the row, every write of the slot ordered before the winner otherwise;
     * either only while the bucket is unversioned. Each goes with one range tombstone
     * ({@link Recorded.Range}, {@code readStamp} taken before the reads): below {@code first}, the
     * earliest of {@code own} (the settled writes' records, not removed before their release),
     * for {@code dead}; below {@code mine} for {@code superseded}.
     */
    private void settleAgainst(String bucket, String key, WriteId mine, WriteId first, Collection<Recorded> dead,
                               Collection<Recorded> superseded, Collection<Recorded> own, long readStamp) {
        CompletableFuture<AsyncResultSet> current = t.async(t.protocol(t.q.selectObject.bind(bucket, key)));
        List<Recorded> released = new ArrayList<>();
        for (Recorded w : dead) {
            if (w.wid().compareTo(mine) < 0) {
                released.add(w);
            }
        }
        content.release(bucket, KIND_OBJECT, key, released, new Recorded.Range(first, readStamp));
        Row now = CassandraTables.join(current).one();
        boolean stands = now != null && RowFormat.writeIdOf(now.getByteBuffer("row")).equals(mine);
        if (stands && superseded.isEmpty()) {
            return;
        }
        if (!stands) {
            settlesOvertaken.increment();
        }
        Row bucketRow = t.session.execute(t.protocol(t.q.selectBucket.bind(bucket))).one();
        if (bucketRow == null || CassandraBuckets.of(bucket, bucketRow).versioning() != Versioning.UNVERSIONED) {
            // The bucket became versioned since this write: the key's versions own its records now
            // (the version null among them), and only changes under the key's lease release them.
            return;
        }
        if (stands) {
            content.release(bucket, KIND_OBJECT, key, List.copyOf(superseded), new Recorded.Range(mine, readStamp));
            return;
        }
        // The settled writes lost: each is released by name, as a range release may have removed its row.
        List<Recorded> lost = new ArrayList<>(own);
        lost.addAll(superseded);
        if (now == null) {
            // A delete with a timestamp at or after this write shadows it.
            content.releaseWritesBelow(bucket, KIND_OBJECT, key, WriteId.firstAt(mine.timestampMicros() + 1), lost);
        } else {
            content.releaseWritesBelow(bucket, KIND_OBJECT, key, RowFormat.writeIdOf(now.getByteBuffer("row")), lost);
        }
    }

    RowFormat.Stored<ObjectInfo> read(String bucket, String key, ConsistencyLevel cl) {
        Row r = t.session.execute(t.q.selectObject.bind(bucket, key).setConsistencyLevel(cl).setIdempotent(true)).one();
        return r == null ? null : RowFormat.decodeObject(key, r.getByteBuffer("row"));
    }

    /** The part sizes of a multipart object as read, or null (not multipart, or replaced since). */
    long[] partSizes(String bucket, String key, ObjectInfo info) throws StoreException {
        if (info.partCount() == 0) {
            buckets.require(bucket);
            return null;
        }
        if (info.versionId() != null) {
            long[] sizes = versions.partSizes(bucket, key, info);
            if (sizes != null || !VersionId.NULL.equals(info.versionId())) {
                return sizes;
            }
        }
        CompletableFuture<AsyncResultSet> layout = t.async(t.read(t.q.selectLayout.bind(bucket, key)));
        Row current = t.session.execute(t.read(t.q.selectObject.bind(bucket, key))).one();
        Row r = CassandraTables.join(layout).one();
        if (r == null || current == null) {
            buckets.require(bucket);
            return null;
        }
        // A plain PUT over a multipart object leaves the layout: it is served only with its own row.
        return PartLayout.sizesOf(r.getByteBuffer("row"), info, RowFormat.writeIdOf(current.getByteBuffer("row")));
    }

    ObjectInfo head(String bucket, String key) throws StoreException {
        RowFormat.Stored<ObjectInfo> row = read(bucket, key, t.readCl);
        if (row == null) {
            buckets.require(bucket);
            return null;
        }
        return named(bucket, row.value());
    }

    ObjectRead get(String bucket, String key) throws IOException {
        ConsistencyLevel cl = t.readCl;
        for (int attempt = 1; ; attempt++) {
            RowFormat.Stored<ObjectInfo> row = read(bucket, key, cl);
            if (row == null) {
                buckets.require(bucket);
                return null;
            }
            ObjectRead read = readers.object(named(bucket, row.value()), row.generation());
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
                t.q.deleteEntry.bind(bucket, entry.dir(), entry.shard(), entry.name()).setQueryTimestamp(ts),
                t.q.deleteLayout.bind(bucket, key).setQueryTimestamp(ts));
        t.session.execute(batch.setQueryTimestamp(ts).setConsistencyLevel(t.writeCl).setIdempotent(true));
        content.releaseWritesBelow(bucket, KIND_OBJECT, key, WriteId.firstAt(ts + 1), List.of());
        return old.value();
    }

    /** Refuses with BUCKET_NOT_EMPTY when the bucket lists a key. */
    void requireNone(String bucket) throws IOException {
        try (Listing.Cursor c = directory.seeker(bucket, "").seek("", Listing.From.AT)) {
            if (c.hasNext()) {
                throw new StoreException(StoreException.Reason.BUCKET_NOT_EMPTY, bucket);
            }
        }
        try (DirectoryIndex.KeyCursor c = versions.versionKeys().keys(bucket, "", Listing.From.AT)) {
            if (c.hasNext()) {
                throw new StoreException(StoreException.Reason.BUCKET_NOT_EMPTY, bucket + " holds versions");
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
