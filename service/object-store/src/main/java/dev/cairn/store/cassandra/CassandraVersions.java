package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.CassandraKeys.KIND_OBJECT;
import static dev.cairn.store.cassandra.CassandraKeys.KIND_VERSION;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreUnavailableException;
import dev.cairn.store.VersionId;
import dev.cairn.store.Versioning;
import dev.cairn.store.WriteConditions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Object versions of a versioned bucket (docs/cassandra-internals.md, "Versioning"). Every version of a key
 * is a row of {@code versions}, the current one too; the current object is besides the
 * {@code objects} row and {@code directory} entry, as in an unversioned bucket, so reads of the
 * current object cost what they always did. Every change of a versioned key — a write, a delete
 * marker, deleting a version — is made under the key's lease ({@link KeyLocks}): it reads the
 * key's rows at quorum, decides, and writes one logged batch, so that a key's versions never
 * depend on two writers' timing. An object version holds one reference on its content: a
 * version with an id under its own slot ({@link CassandraKeys#KIND_VERSION}), which no later
 * write settles; the version {@code null} under the key's slot, as an unversioned object does.
 *
 * <p>Thread-safety: thread-safe; state is in Cassandra.
 */
final class CassandraVersions {
    private final CassandraTables t;
    private final CassandraBuckets buckets;
    private final CassandraContent content;
    private final CassandraReaders readers;
    private final DirectoryIndex directory;
    private final DirectoryIndex versionKeys;
    private final Settler settler;
    private final KeyLocks locks;

    CassandraVersions(CassandraTables t, CassandraBuckets buckets, CassandraContent content, CassandraReaders readers,
                      DirectoryIndex directory, Settler settler, KeyLocks locks) {
        this.t = t;
        this.buckets = buckets;
        this.content = content;
        this.readers = readers;
        this.directory = directory;
        this.versionKeys = DirectoryIndex.ofVersionKeys(t);
        this.settler = settler;
        this.locks = locks;
    }

    DirectoryIndex versionKeys() {
        return versionKeys;
    }

    /** A key's rows as read: the {@code objects} row (null: none) and its versions, newest first. */
    record KeyState(String key, RowFormat.Stored<ObjectInfo> current, ByteBuffer currentCell,
                            long currentWritetime, List<VersionRows.Stored> versions) {

        /** Whether the current row has no {@code versions} row: it was written before the bucket was versioned. */
        boolean currentUnlisted() {
            return current != null && (versions.isEmpty() || !versions.get(0).wid().equals(current.writeId()));
        }

        /** A write id every row read orders before, cells and tombstones alike. */
        WriteId floor() {
            long max = 0;
            if (current != null) {
                max = Math.max(currentWritetime, current.writeId().timestampMicros());
            }
            for (VersionRows.Stored v : versions) {
                max = Math.max(max, Math.max(v.writetime(), v.wid().timestampMicros()));
            }
            return new WriteId(ByteBuffer.allocate(WriteId.LENGTH).putLong(max).array());
        }

        VersionRows.Stored nullVersion() {
            for (VersionRows.Stored v : versions) {
                if (v.nullId()) {
                    return v;
                }
            }
            return null;
        }
    }

    KeyState read(String bucket, String key, boolean allVersions, ConsistencyLevel cl) {
        CompletableFuture<AsyncResultSet> row = t.async(t.q.selectObjectStamped.bind(bucket, key)
                .setConsistencyLevel(cl).setIdempotent(true));
        CompletableFuture<AsyncResultSet> versions = t.async((allVersions ? t.q.selectVersions : t.q.selectNewestVersion)
                .bind(bucket, key).setConsistencyLevel(cl).setIdempotent(true));
        List<VersionRows.Stored> list = new ArrayList<>();
        for (Row r : CassandraTables.allRows(CassandraTables.join(versions))) {
            list.add(VersionRows.decode(key, r));
        }
        Row r = CassandraTables.join(row).one();
        if (r == null) {
            return new KeyState(key, null, null, 0, list);
        }
        ByteBuffer cell = r.getByteBuffer("row");
        return new KeyState(key, RowFormat.decodeObject(key, cell), cell, r.isNull("ts") ? 0 : r.getLong("ts"), list);
    }

    /** The key's lease: a writer without a condition that waits too long is answered as the cluster being slow. */
    KeyLocks.Lease lease(String bucket, String key, boolean conditional) throws IOException {
        try {
            return locks.acquire(bucket, key);
        } catch (StoreException e) {
            if (conditional || e.reason() != StoreException.Reason.CONDITIONAL_CONFLICT) {
                throw e;
            }
            throw new StoreUnavailableException("another write of " + bucket + "/" + key + " holds the key", e);
        }
    }

    /**
     * Writes an object version: Enabled, a new version with an id; Suspended, the version
     * {@code null}, replacing the one there was; as the bucket row read here says. Null, having
     * written nothing, when that row says the bucket is unversioned (this node's copy was of a
     * bucket deleted since). Content is stored outside the lease, held by a readers' lease kind
     * reference until the write is recorded under the lease.
     */
    ObjectInfo write(PutRequest request, long[] partSizes) throws IOException {
        String bucket = request.bucket();
        String key = request.key();
        ContentSource source = request.content();
        String etag = request.etag();
        boolean onlyIfAbsent = request.onlyIfAbsent();
        String ifMatch = request.ifMatch();
        WriteId held = t.ids.next();
        String sha = source.sha256();
        CompletableFuture<AsyncResultSet> bucketRow = t.async(t.read(t.q.selectBucket.bind(bucket)));
        List<CompletableFuture<AsyncResultSet>> first = new ArrayList<>(directory.writeMarkersAsync(bucket, key));
        first.addAll(versionKeys.writeMarkersAsync(bucket, key));
        first.add(content.holdAsync(sha, held));
        CompletableFuture<AsyncResultSet> generations = t.async(t.protocol(t.q.selectGenerations.bind(sha)));
        boolean recorded = false;
        CassandraContent.Stored stored = null;
        try {
            CassandraTables.joinAll(first);
            Row bucketState = CassandraTables.join(bucketRow).one();
            if (bucketState == null) {
                throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
            }
            buckets.remember(bucket, bucketState);
            Versioning versioning = CassandraBuckets.of(bucket, bucketState).versioning();
            if (versioning == Versioning.UNVERSIONED) {
                return null;
            }
            stored = content.store(source, CassandraTables.allRows(CassandraTables.join(generations)), true);
            boolean enabled = versioning == Versioning.ENABLED;
            WriteId wid;
            ObjectInfo info;
            try (KeyLocks.Lease lease = lease(bucket, key, onlyIfAbsent || ifMatch != null)) {
                KeyState s = read(bucket, key, !enabled, t.protocolCl);
                WriteConditions.check(key, s.current() == null ? null : s.current().value(), onlyIfAbsent, ifMatch);
                wid = t.ids.nextAfter(s.floor());
                String id = enabled ? VersionRows.idOf(wid) : null;
                content.recordWrite(bucket, enabled ? KIND_VERSION : KIND_OBJECT,
                        enabled ? CassandraKeys.versionSlot(key, id) : key, wid, sha);
                recorded = true;
                info = new ObjectInfo(key, sha, source.size(), etag, request.attributes(), wid.timestampMicros() / 1000,
                        request.partCount(), request.checksums(), id);
                ByteBuffer cell = RowFormat.encodeObject(wid, stored.generation(), info);
                ByteBuffer layout = partSizes == null ? null : PartLayout.encode(wid, sha, partSizes);
                List<BatchableStatement<?>> batch = new ArrayList<>();
                DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
                batch.add(t.q.insertObject.bind(bucket, key, cell));
                batch.add(t.q.insertEntry.bind(bucket, entry.dir(), entry.shard(), entry.name(), cell));
                if (layout != null) {
                    batch.add(t.q.insertLayout.bind(bucket, key, layout));
                }
                batch.add(t.q.insertVersion.bind(bucket, key, ByteBuffer.wrap(VersionRows.sortOf(wid)),
                        VersionRows.encodeObject(cell, !enabled), layout));
                batch.add(t.q.insertVersionKey.bind(bucket, entry.dir(), entry.shard(), entry.name()));
                if (enabled) {
                    listUnlistedCurrent(bucket, s, batch);
                } else {
                    VersionRows.Stored replaced = s.nullVersion();
                    if (replaced != null) {
                        batch.add(t.q.deleteVersion.bind(bucket, key, ByteBuffer.wrap(replaced.sort())));
                    }
                }
                if (stored.fresh()) {
                    batch.add(content.complete(sha, stored));
                }
                apply(batch, wid.timestampMicros(), null);
                lease.requireHeld();
            }
            WriteId mine = wid;
            settler.submit(() -> {
                content.unhold(sha, held, false);
                if (!enabled) {
                    // A write of the version null ends the one before it.
                    content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.compareTo(mine) < 0);
                }
            });
            return enabled ? info : info.withVersionId(VersionId.NULL);
        } finally {
            if (!recorded) {
                if (stored != null) {
                    // No row was written: none names the new generation.
                    content.discard(sha, stored);
                }
                content.unhold(sha, held, true);
            }
        }
    }

    /**
     * A current row written before its bucket was versioned is the version {@code null}: the first
     * versioned change of its key gives it its {@code versions} row (its part layout with it).
     */
    void listUnlistedCurrent(String bucket, KeyState s, List<BatchableStatement<?>> batch) {
        if (!s.currentUnlisted()) {
            return;
        }
        ByteBuffer layout = null;
        if (s.current().value().partCount() > 0) {
            Row l = t.session.execute(t.protocol(t.q.selectLayout.bind(bucket, s.key()))).one();
            if (l != null && RowFormat.writeIdOf(l.getByteBuffer("row")).equals(s.current().writeId())) {
                layout = l.getByteBuffer("row");
            }
        }
        batch.add(t.q.insertVersion.bind(bucket, s.key(), ByteBuffer.wrap(VersionRows.sortOf(s.current().writeId())),
                VersionRows.encodeObject(s.currentCell(), true), layout));
    }

    void apply(List<BatchableStatement<?>> statements, long ts, com.datastax.oss.driver.api.core.cql.Statement<?> beside) {
        applyWith(statements, ts, beside == null ? List.of() : List.of(beside));
    }

    /** The batch at {@code ts}, with the statements {@code beside} sent at the same time. */
    void applyWith(List<BatchableStatement<?>> statements, long ts, List<com.datastax.oss.driver.api.core.cql.Statement<?>> beside) {
        List<BatchableStatement<?>> stamped = new ArrayList<>();
        for (BatchableStatement<?> st : statements) {
            stamped.add((BatchableStatement<?>) st.setQueryTimestamp(ts));
        }
        // A batch carries one timestamp for all its statements.
        List<CompletableFuture<AsyncResultSet>> all = new ArrayList<>();
        all.add(t.async(BatchStatement.newInstance(BatchType.LOGGED, stamped)
                .setQueryTimestamp(ts).setConsistencyLevel(t.writeCl).setIdempotent(true)));
        for (com.datastax.oss.driver.api.core.cql.Statement<?> other : beside) {
            all.add(t.async(other));
        }
        CassandraTables.joinAll(all);
    }

    /**
     * DeleteObject without a version id: a delete marker becomes the current version (Suspended:
     * with the id {@code null}, replacing the version {@code null}).
     */
    ObjectVersion addMarker(String bucket, String key, Versioning versioning) throws IOException {
        boolean suspended = versioning == Versioning.SUSPENDED;
        WriteId wid;
        ObjectVersion marker;
        try (KeyLocks.Lease lease = lease(bucket, key, false)) {
            KeyState s = read(bucket, key, suspended, t.protocolCl);
            wid = t.ids.nextAfter(s.floor());
            long millis = wid.timestampMicros() / 1000;
            List<BatchableStatement<?>> batch = new ArrayList<>();
            DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
            if (s.current() != null) {
                batch.add(t.q.deleteObject.bind(bucket, key));
                batch.add(t.q.deleteEntry.bind(bucket, entry.dir(), entry.shard(), entry.name()));
                batch.add(t.q.deleteLayout.bind(bucket, key));
            }
            CassandraTables.joinAll(versionKeys.writeMarkersAsync(bucket, key));
            batch.add(t.q.insertVersion.bind(bucket, key, ByteBuffer.wrap(VersionRows.sortOf(wid)),
                    VersionRows.encodeMarker(wid, millis, suspended), null));
            batch.add(t.q.insertVersionKey.bind(bucket, entry.dir(), entry.shard(), entry.name()));
            if (suspended) {
                VersionRows.Stored replaced = s.nullVersion();
                if (replaced != null) {
                    batch.add(t.q.deleteVersion.bind(bucket, key, ByteBuffer.wrap(replaced.sort())));
                }
            } else {
                listUnlistedCurrent(bucket, s, batch);
            }
            apply(batch, wid.timestampMicros(), null);
            lease.requireHeld();
            marker = ObjectVersion.marker(key, suspended ? VersionId.NULL : VersionRows.idOf(wid), millis, true);
        }
        if (suspended) {
            WriteId at = wid;
            content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.compareTo(at) < 0);
        }
        return marker;
    }

    /** A version of a key as read: its row (null for a current row written before versioning), and the row's. */
    private record Target(VersionRows.Stored listed, ObjectVersion version, WriteId wid, UUID generation,
                          ByteBuffer cell, ByteBuffer layout) {
    }

    /** The version of that id among what was read; null when none. */
    private static Target find(KeyState s, String versionId) {
        boolean unlisted = s.currentUnlisted();
        if (unlisted && VersionId.NULL.equals(versionId) && s.current().value().versionId() == null) {
            return new Target(null, ObjectVersion.of(s.current().value().withVersionId(VersionId.NULL), true),
                    s.current().writeId(), s.current().generation(), s.currentCell(), null);
        }
        byte[] sort = VersionId.NULL.equals(versionId) ? null : VersionId.decode(versionId);
        if (sort == null && !VersionId.NULL.equals(versionId)) {
            return null;
        }
        for (int i = 0; i < s.versions().size(); i++) {
            VersionRows.Stored v = s.versions().get(i);
            if (sort == null ? v.nullId() : !v.nullId() && Arrays.equals(sort, v.sort())) {
                boolean latest = !unlisted && i == 0;
                return new Target(v, v.version(s.key(), latest), v.wid(), v.generation(), v.cell(), v.layout());
            }
        }
        return null;
    }

    /**
     * DeleteObject with a version id: that version goes for good, its content's reference with it;
     * when it was current, the next newest becomes current (none, or a delete marker: the key
     * reads as absent). Null when the key has no version of that id.
     */
    ObjectVersion deleteVersion(String bucket, String key, String versionId) throws IOException {
        Target target;
        try (KeyLocks.Lease lease = lease(bucket, key, false)) {
            KeyState s = read(bucket, key, true, t.protocolCl);
            target = find(s, versionId);
            if (target == null) {
                return null;
            }
            long ts = t.ids.nextAfter(s.floor()).timestampMicros();
            List<VersionRows.Stored> left = new ArrayList<>(s.versions());
            List<BatchableStatement<?>> batch = new ArrayList<>();
            DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
            if (target.listed() != null) {
                left.remove(target.listed());
                batch.add(t.q.deleteVersion.bind(bucket, key, ByteBuffer.wrap(target.listed().sort())));
            }
            if (target.version().latest()) {
                VersionRows.Stored next = left.isEmpty() ? null : left.get(0);
                if (next == null || next.marker()) {
                    batch.add(t.q.deleteObject.bind(bucket, key));
                    batch.add(t.q.deleteEntry.bind(bucket, entry.dir(), entry.shard(), entry.name()));
                    batch.add(t.q.deleteLayout.bind(bucket, key));
                } else {
                    // The next newest becomes current again: its own cell, its write id unchanged.
                    batch.add(t.q.insertObject.bind(bucket, key, next.cell()));
                    batch.add(t.q.insertEntry.bind(bucket, entry.dir(), entry.shard(), entry.name(), next.cell()));
                    batch.add(next.layout() == null ? t.q.deleteLayout.bind(bucket, key)
                            : t.q.insertLayout.bind(bucket, key, next.layout()));
                }
            }
            if (left.isEmpty()) {
                batch.add(t.q.deleteVersionKey.bind(bucket, entry.dir(), entry.shard(), entry.name()));
            }
            apply(batch, ts, null);
            lease.requireHeld();
        }
        ObjectVersion v = target.version();
        if (!v.deleteMarker()) {
            if (VersionId.NULL.equals(v.versionId())) {
                WriteId gone = target.wid();
                content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.compareTo(gone) <= 0);
            } else {
                content.releaseWrites(bucket, KIND_VERSION, CassandraKeys.versionSlot(key, v.versionId()), w -> true);
            }
        }
        return v;
    }

    /** One version of a key, read at {@code read-consistency}; null when none has that id. */
    private Target version(String bucket, String key, String versionId) {
        if (VersionId.NULL.equals(versionId)) {
            return find(read(bucket, key, true, t.readCl), versionId);
        }
        byte[] sort = VersionId.decode(versionId);
        if (sort == null) {
            return null;
        }
        CompletableFuture<AsyncResultSet> current = t.async(t.read(t.q.selectObject.bind(bucket, key)));
        CompletableFuture<AsyncResultSet> newest = t.async(t.read(t.q.selectNewestVersion.bind(bucket, key)));
        Row r = t.session.execute(t.read(t.q.selectVersion.bind(bucket, key, ByteBuffer.wrap(sort)))).one();
        Row c = CassandraTables.join(current).one();
        Row n = CassandraTables.join(newest).one();
        if (r == null) {
            return null;
        }
        VersionRows.Stored v = VersionRows.decode(key, r);
        boolean latest = c != null ? RowFormat.writeIdOf(c.getByteBuffer("row")).equals(v.wid())
                : n != null && Arrays.equals(VersionRows.decode(key, n).sort(), v.sort());
        return new Target(v, v.version(key, latest), v.wid(), v.generation(), v.cell(), v.layout());
    }

    ObjectVersion objectVersion(String bucket, String key, String versionId) {
        Target found = version(bucket, key, versionId);
        return found == null ? null : found.version();
    }

    /** The content of an object version; null when there is none of that id (a delete marker included). */
    ObjectRead read(String bucket, String key, String versionId) throws IOException {
        for (int attempt = 1; attempt <= 2; attempt++) {
            Target found = version(bucket, key, versionId);
            if (found == null || found.version().deleteMarker()) {
                return null;
            }
            ObjectRead read = readers.object(found.version().info(), found.generation());
            if (read != null) {
                return read;
            }
            // Deleted for good while it was read: read again, which finds it gone.
            CassandraReaders.pause(attempt);
        }
        return null;
    }

    /** The part sizes of an object version with an id, or null (not multipart, or none recorded). */
    long[] partSizes(String bucket, String key, ObjectInfo info) {
        Target found = version(bucket, key, info.versionId());
        if (found == null || found.layout() == null || found.version().deleteMarker()) {
            return null;
        }
        return PartLayout.sizesOf(found.layout(), info, found.wid());
    }

    /** The key's current delete marker, or null. */
    ObjectVersion currentDeleteMarker(String bucket, String key) {
        CompletableFuture<AsyncResultSet> current = t.async(t.read(t.q.selectObject.bind(bucket, key)));
        Row n = t.session.execute(t.read(t.q.selectNewestVersion.bind(bucket, key))).one();
        if (CassandraTables.join(current).one() != null || n == null) {
            return null;
        }
        VersionRows.Stored v = VersionRows.decode(key, n);
        return v.marker() ? v.version(key, true) : null;
    }

    /**
     * Sets the canned ACL of one object version (the current one when {@code versionId} is null)
     * in place: its cells are written again with the same write id, so the version keeps its id,
     * time and place. Null when there is no object version of that id; NO_SUCH_KEY when there is
     * no current object.
     */
    ObjectInfo setAcl(String bucket, String key, String versionId, BucketAcl acl) throws IOException {
        try (KeyLocks.Lease lease = lease(bucket, key, false)) {
            KeyState s = read(bucket, key, true, t.protocolCl);
            Target target;
            if (versionId == null) {
                if (s.current() == null) {
                    throw new StoreException(StoreException.Reason.NO_SUCH_KEY, key);
                }
                ObjectInfo c = s.current().value();
                target = find(s, c.versionId() == null ? VersionId.NULL : c.versionId());
            } else {
                target = find(s, versionId);
            }
            if (target == null || target.version().deleteMarker()) {
                if (versionId == null) {
                    throw new StoreException(StoreException.Reason.NO_SUCH_KEY, key);
                }
                return null;
            }
            ObjectInfo info = target.version().info();
            ObjectInfo changed = info.withAttributes(info.attributes().withAcl(acl));
            ObjectInfo encoded = VersionId.NULL.equals(changed.versionId()) ? changed.withVersionId(null) : changed;
            ByteBuffer cell = RowFormat.encodeObject(target.wid(), target.generation(), encoded);
            List<BatchableStatement<?>> batch = new ArrayList<>();
            if (target.listed() != null) {
                batch.add(t.q.insertVersion.bind(bucket, key, ByteBuffer.wrap(target.listed().sort()),
                        VersionRows.encodeObject(cell, target.listed().nullId()), target.layout()));
            }
            if (target.version().latest()) {
                DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
                batch.add(t.q.insertObject.bind(bucket, key, cell));
                batch.add(t.q.insertEntry.bind(bucket, entry.dir(), entry.shard(), entry.name(), cell));
            }
            apply(batch, t.ids.nextAfter(s.floor()).timestampMicros(), null);
            lease.requireHeld();
            return changed;
        }
    }
}
