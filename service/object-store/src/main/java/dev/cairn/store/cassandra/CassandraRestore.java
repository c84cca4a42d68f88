package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.CassandraKeys.KIND_OBJECT;
import static dev.cairn.store.cassandra.CassandraKeys.KIND_VERSION;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.StoreException;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Writes the versions of a versioned bucket exactly as a backup recorded them
 * ({@link dev.cairn.store.ObjectStore#restoreVersion}). A version's place is its 12-byte sort id
 * (the same form in both stores), and the sort id fixes the write id the version is written
 * under: its time is the sort id's, its first 4 random bytes the sort id's last 4, the rest
 * zero — so the version id, derived from the write id, is the recorded one, and writing a record
 * again writes the same rows and the same reference. The row goes where its sort id puts it
 * among the key's {@code versions} rows; when it is the newest, it becomes the current object
 * (a delete marker: the key reads as absent). References as a serving write makes them: a version
 * with an id under its own slot, the version {@code null} under the key's slot, replacing the
 * key's other version {@code null}.
 *
 * <p>A record without place (the version {@code null} written before the bucket was versioned)
 * replaces the current row under a new write id, keeping the recorded time.
 *
 * <p>Under the key's lease like every change of a versioned key ({@link CassandraVersions}); the
 * cells are written at a timestamp after every cell read, so they win over what they replace
 * whatever the restored write id's age. Thread-safe.
 */
final class CassandraRestore {
    private final CassandraTables t;
    private final CassandraBuckets buckets;
    private final CassandraContent content;
    private final CassandraVersions versions;
    private final DirectoryIndex directory;
    private final Settler settler;

    CassandraRestore(CassandraTables t, CassandraBuckets buckets, CassandraContent content, CassandraVersions versions,
                     DirectoryIndex directory, Settler settler) {
        this.t = t;
        this.buckets = buckets;
        this.content = content;
        this.versions = versions;
        this.directory = directory;
        this.settler = settler;
    }

    /** The write id a version of this place is restored under. */
    static WriteId writeIdOf(byte[] sort) {
        ByteBuffer s = ByteBuffer.wrap(sort);
        long micros = Long.MAX_VALUE - s.getLong();
        ByteBuffer b = ByteBuffer.allocate(WriteId.LENGTH);
        b.putLong(micros).put(sort, 8, 4);
        return new WriteId(b.array());
    }

    void restore(String bucket, VersionRecord record, ContentSource source) throws IOException {
        ObjectVersion v = record.version();
        byte[] sort = record.order();
        v.checkRestorable(sort, source);
        Row bucketRow = t.session.execute(t.protocol(t.q.selectBucket.bind(bucket))).one();
        if (bucketRow == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
        if (CassandraBuckets.of(bucket, bucketRow).versioning() == Versioning.UNVERSIONED) {
            throw new IllegalArgumentException(bucket + "/" + v.key() + ": a version of a versioned bucket, but the"
                    + " bucket's versioning is not configured");
        }
        buckets.remember(bucket, bucketRow);
        String sha = v.deleteMarker() ? null : v.info().sha256();
        WriteId held = sha == null ? null : t.ids.next();
        boolean settled = false;
        try {
            CassandraContent.Stored stored = null;
            if (sha != null) {
                CompletableFuture<AsyncResultSet> generations = t.async(t.protocol(t.q.selectGenerations.bind(sha)));
                CassandraTables.join(content.holdAsync(sha, held));
                stored = content.store(source, CassandraTables.allRows(CassandraTables.join(generations)));
            }
            List<CompletableFuture<AsyncResultSet>> markers = new ArrayList<>(directory.writeMarkersAsync(bucket, v.key()));
            markers.addAll(versions.versionKeys().writeMarkersAsync(bucket, v.key()));
            CassandraTables.joinAll(markers);
            List<Runnable> releases = sort == null ? replaceCurrent(bucket, v, stored) : place(bucket, v, sort, stored);
            settled = true;
            settler.submit(() -> {
                if (held != null) {
                    content.unhold(sha, held, false);
                }
                releases.forEach(Runnable::run);
            });
        } finally {
            if (held != null && !settled) {
                content.unhold(sha, held, true);
            }
        }
    }

    /** A version without place: the key's current row, under a new write id; its versions rows stay. */
    private List<Runnable> replaceCurrent(String bucket, ObjectVersion v, CassandraContent.Stored stored)
            throws IOException {
        String key = v.key();
        try (KeyLocks.Lease lease = versions.lease(bucket, key, false)) {
            CassandraVersions.KeyState s = versions.read(bucket, key, false, t.protocolCl);
            WriteId wid = t.ids.nextAfter(s.floor());
            content.recordWrite(bucket, KIND_OBJECT, key, wid, v.info().sha256());
            ByteBuffer cell = RowFormat.encodeObject(wid, stored.generation(), v.info().withKey(key).withVersionId(null));
            DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
            List<BatchableStatement<?>> batch = new ArrayList<>();
            batch.add(t.q.insertObject.bind(bucket, key, cell));
            batch.add(t.q.insertEntry.bind(bucket, entry.dir(), entry.shard(), entry.name(), cell));
            batch.add(t.q.deleteLayout.bind(bucket, key));
            versions.apply(batch, wid.timestampMicros(), stored.fresh() ? content.complete(v.info().sha256(), stored) : null);
            lease.requireHeld();
            return List.of(() -> content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.compareTo(wid) < 0));
        }
    }

    /**
     * One of the key's versions once the record is placed: its sort id and its row (null for the
     * one restored and for a current row not listed yet).
     */
    private record Placed(byte[] sort, boolean restored, VersionRows.Stored stored) {
    }

    private List<Runnable> place(String bucket, ObjectVersion v, byte[] sort, CassandraContent.Stored stored)
            throws IOException {
        String key = v.key();
        boolean restoresNull = v.versionId() == null || VersionId.NULL.equals(v.versionId());
        WriteId wid = writeIdOf(sort);
        List<Runnable> releases = new ArrayList<>();
        try (KeyLocks.Lease lease = versions.lease(bucket, key, false)) {
            CassandraVersions.KeyState s = versions.read(bucket, key, true, t.protocolCl);
            List<BatchableStatement<?>> batch = new ArrayList<>();
            List<Placed> kept = new ArrayList<>();
            byte[] currentSort = null;
            if (s.currentUnlisted()) {
                // The current row becomes a listed version null, as a serving write would list it.
                versions.listUnlistedCurrent(bucket, s, batch);
                currentSort = VersionRows.sortOf(s.current().writeId());
                boolean replaced = restoresNull || Arrays.equals(currentSort, sort);
                if (replaced) {
                    batch.remove(batch.size() - 1);
                    WriteId gone = s.current().writeId();
                    releases.add(() -> content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.equals(gone)));
                } else {
                    kept.add(new Placed(currentSort, false, null));
                }
            } else if (!s.versions().isEmpty()) {
                currentSort = s.versions().get(0).sort();
            }
            for (VersionRows.Stored old : s.versions()) {
                boolean samePlace = Arrays.equals(old.sort(), sort);
                if (!samePlace && !(restoresNull && old.nullId())) {
                    kept.add(new Placed(old.sort(), false, old));
                    continue;
                }
                if (!samePlace) {
                    batch.add(t.q.deleteVersion.bind(bucket, key, ByteBuffer.wrap(old.sort())));
                }
                if (!old.marker() && !old.wid().equals(wid)) {
                    WriteId gone = old.wid();
                    int kind = old.nullId() ? KIND_OBJECT : KIND_VERSION;
                    String slot = old.nullId() ? key : CassandraKeys.versionSlot(key, old.versionId());
                    releases.add(() -> content.releaseWrites(bucket, kind, slot, w -> w.equals(gone)));
                }
            }
            ByteBuffer cell = null;
            ByteBuffer row;
            if (v.deleteMarker()) {
                row = VersionRows.encodeMarker(wid, v.lastModified(), restoresNull);
            } else {
                content.recordWrite(bucket, restoresNull ? KIND_OBJECT : KIND_VERSION,
                        restoresNull ? key : CassandraKeys.versionSlot(key, v.versionId()), wid, v.info().sha256());
                ObjectInfo info = v.info().withKey(key).withVersionId(restoresNull ? null : v.versionId());
                cell = RowFormat.encodeObject(wid, stored.generation(), info);
                row = VersionRows.encodeObject(cell, restoresNull);
            }
            batch.add(t.q.insertVersion.bind(bucket, key, ByteBuffer.wrap(sort), row, null));
            DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
            batch.add(t.q.insertVersionKey.bind(bucket, entry.dir(), entry.shard(), entry.name()));
            kept.add(new Placed(sort, true, null));
            kept.sort((a, b) -> Arrays.compareUnsigned(a.sort(), b.sort()));
            Placed newest = kept.get(0);
            if (newest.restored()) {
                setCurrent(bucket, key, entry, cell, null, s.current() != null, batch);
            } else if (!Arrays.equals(newest.sort(), currentSort) && newest.stored() != null) {
                // The current version was replaced by an older one: the next newest is current again.
                VersionRows.Stored next = newest.stored();
                setCurrent(bucket, key, entry, next.marker() ? null : next.cell(), next.layout(), s.current() != null, batch);
            }
            versions.apply(batch, t.ids.nextAfter(s.floor()).timestampMicros(),
                    stored != null && stored.fresh() ? content.complete(v.info().sha256(), stored) : null);
            lease.requireHeld();
        }
        return releases;
    }

    /** The current object: {@code cell}, or none for a delete marker ({@code cell} null). */
    private void setCurrent(String bucket, String key, DirectoryIndex.Entry entry, ByteBuffer cell, ByteBuffer layout,
                            boolean hasCurrent, List<BatchableStatement<?>> batch) {
        if (cell == null) {
            if (hasCurrent) {
                batch.add(t.q.deleteObject.bind(bucket, key));
                batch.add(t.q.deleteEntry.bind(bucket, entry.dir(), entry.shard(), entry.name()));
                batch.add(t.q.deleteLayout.bind(bucket, key));
            }
            return;
        }
        batch.add(t.q.insertObject.bind(bucket, key, cell));
        batch.add(t.q.insertEntry.bind(bucket, entry.dir(), entry.shard(), entry.name(), cell));
        batch.add(layout == null ? t.q.deleteLayout.bind(bucket, key) : t.q.insertLayout.bind(bucket, key, layout));
    }
}
