package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.CassandraKeys.KIND_OBJECT;
import static dev.cairn.store.cassandra.CassandraKeys.KIND_VERSION;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
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
import java.util.Collections;
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
 * whatever the restored write id's age. Versions of one key given together ({@link #restoreKey})
 * share a lease, a read and a batch per {@link #GROUP}. Thread-safe.
 */
final class CassandraRestore {
    /** Versions of one key placed under one lease: the group's batch stays a few KB, the lease short. */
    static final int GROUP = 16;

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
        restoreKey(bucket, List.of(record), Collections.singletonList(source));
    }

    /**
     * Restores versions of one key ({@link dev.cairn.store.ObjectStore#restoreVersions}): the
     * bucket row is read once; the contents are stored and held, and their writes recorded, for
     * all of them at once; then up to {@link #GROUP} versions go in under one lease, one read of
     * the key's rows and one batch. Records without place, and several versions {@code null},
     * go in one at a time in the given order, as {@link #restore} writes them.
     */
    void restoreKey(String bucket, List<VersionRecord> records, List<ContentSource> sources) throws IOException {
        if (records.size() != sources.size()) {
            throw new IllegalArgumentException(records.size() + " records but " + sources.size() + " contents");
        }
        if (records.isEmpty()) {
            return;
        }
        String key = records.get(0).version().key();
        int nulls = 0;
        boolean unplaced = false;
        for (int i = 0; i < records.size(); i++) {
            VersionRecord r = records.get(i);
            if (!r.version().key().equals(key)) {
                throw new IllegalArgumentException("versions of " + key + " and " + r.version().key() + " in one call");
            }
            r.version().checkRestorable(r.order(), sources.get(i));
            nulls += nullId(r.version()) ? 1 : 0;
            unplaced |= r.order() == null;
        }
        checkVersioned(bucket, key);
        markers(bucket, key);
        if (unplaced || nulls > 1) {
            for (int i = 0; i < records.size(); i++) {
                write(bucket, key, List.of(new Item(records.get(i), sources.get(i))));
            }
            return;
        }
        List<Item> items = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            items.add(new Item(records.get(i), sources.get(i)));
            if (items.size() == GROUP || i == records.size() - 1) {
                write(bucket, key, items);
                items = new ArrayList<>();
            }
        }
    }

    /** One record to write, with its content once stored and held. */
    private static final class Item {
        final VersionRecord record;
        final ContentSource source;
        final String sha;
        CassandraContent.Stored stored;

        Item(VersionRecord record, ContentSource source) {
            this.record = record;
            this.source = source;
            this.sha = record.version().deleteMarker() ? null : record.version().info().sha256();
        }

        ObjectVersion v() {
            return record.version();
        }
    }

    private static boolean nullId(ObjectVersion v) {
        return v.versionId() == null || VersionId.NULL.equals(v.versionId());
    }

    private void checkVersioned(String bucket, String key) throws IOException {
        Row bucketRow = t.session.execute(t.protocol(t.q.selectBucket.bind(bucket))).one();
        if (bucketRow == null) {
            throw new StoreException(StoreException.Reason.NO_SUCH_BUCKET, bucket);
        }
        if (CassandraBuckets.of(bucket, bucketRow).versioning() == Versioning.UNVERSIONED) {
            throw new IllegalArgumentException(bucket + "/" + key + ": a version of a versioned bucket, but the"
                    + " bucket's versioning is not configured");
        }
        buckets.remember(bucket, bucketRow);
    }

    private void markers(String bucket, String key) {
        List<CompletableFuture<AsyncResultSet>> markers = new ArrayList<>(directory.writeMarkersAsync(bucket, key));
        markers.addAll(versions.versionKeys().writeMarkersAsync(bucket, key));
        CassandraTables.joinAll(markers);
    }

    /** Stores and holds the items' contents, writes them, then ends the holds (after the lease). */
    private void write(String bucket, String key, List<Item> items) throws IOException {
        List<WriteId> holds = new ArrayList<>();
        boolean settled = false;
        try {
            List<CompletableFuture<AsyncResultSet>> held = new ArrayList<>();
            List<CompletableFuture<AsyncResultSet>> generations = new ArrayList<>();
            for (Item i : items) {
                WriteId hold = i.sha == null ? null : t.ids.next();
                holds.add(hold);
                generations.add(hold == null ? null : t.async(t.protocol(t.q.selectGenerations.bind(i.sha))));
                if (hold != null) {
                    held.add(content.holdAsync(i.sha, hold));
                }
            }
            CassandraTables.joinAll(held);
            for (int n = 0; n < items.size(); n++) {
                Item i = items.get(n);
                if (i.sha != null) {
                    i.stored = content.store(i.source, CassandraTables.allRows(CassandraTables.join(generations.get(n))));
                }
            }
            Item first = items.get(0);
            List<Runnable> releases = first.record.order() == null
                    ? replaceCurrent(bucket, first.record, first.stored) : place(bucket, key, items);
            settled = true;
            settler.submit(() -> {
                for (int n = 0; n < items.size(); n++) {
                    if (holds.get(n) != null) {
                        content.unhold(items.get(n).sha, holds.get(n), false);
                    }
                }
                releases.forEach(Runnable::run);
            });
        } finally {
            if (!settled) {
                for (int n = 0; n < holds.size(); n++) {
                    if (holds.get(n) != null) {
                        content.unhold(items.get(n).sha, holds.get(n), true);
                    }
                }
            }
        }
    }

    /** A version without place: the key's current row, under a new write id; its versions rows stay. */
    private List<Runnable> replaceCurrent(String bucket, VersionRecord record, CassandraContent.Stored stored)
            throws IOException {
        ObjectVersion v = record.version();
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
            batch.add(record.partSizes() == null ? t.q.deleteLayout.bind(bucket, key)
                    : t.q.insertLayout.bind(bucket, key, PartLayout.encode(wid, v.info().sha256(), record.partSizes())));
            versions.apply(batch, wid.timestampMicros(), stored.fresh() ? content.complete(v.info().sha256(), stored) : null);
            lease.requireHeld();
            return List.of(() -> content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.compareTo(wid) < 0));
        }
    }

    /**
     * One of the key's versions once the records are placed: its sort id, its row (null for one
     * restored and for a current row not listed yet), and for one restored its object cell (null
     * for a delete marker).
     */
    private record Placed(byte[] sort, boolean restored, VersionRows.Stored stored, ByteBuffer cell, ByteBuffer layout) {
    }

    private static Item at(List<Item> items, byte[] sort) {
        for (Item i : items) {
            if (Arrays.equals(i.record.order(), sort)) {
                return i;
            }
        }
        return null;
    }

    /** Places the items (at most one version {@code null}, every one with a place) under one lease. */
    private List<Runnable> place(String bucket, String key, List<Item> items) throws IOException {
        boolean restoresNull = items.stream().anyMatch(i -> nullId(i.v()));
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
                boolean replaced = restoresNull || at(items, currentSort) != null;
                if (replaced) {
                    batch.remove(batch.size() - 1);
                    WriteId gone = s.current().writeId();
                    releases.add(() -> content.releaseWrites(bucket, KIND_OBJECT, key, w -> w.equals(gone)));
                } else {
                    kept.add(new Placed(currentSort, false, null, null, null));
                }
            } else if (!s.versions().isEmpty()) {
                currentSort = s.versions().get(0).sort();
            }
            for (VersionRows.Stored old : s.versions()) {
                Item same = at(items, old.sort());
                if (same == null && !(restoresNull && old.nullId())) {
                    kept.add(new Placed(old.sort(), false, old, null, null));
                    continue;
                }
                if (same == null) {
                    batch.add(t.q.deleteVersion.bind(bucket, key, ByteBuffer.wrap(old.sort())));
                }
                if (!old.marker() && (same == null || !old.wid().equals(writeIdOf(same.record.order())))) {
                    WriteId gone = old.wid();
                    int kind = old.nullId() ? KIND_OBJECT : KIND_VERSION;
                    String slot = old.nullId() ? key : CassandraKeys.versionSlot(key, old.versionId());
                    releases.add(() -> content.releaseWrites(bucket, kind, slot, w -> w.equals(gone)));
                }
            }
            List<CompletableFuture<AsyncResultSet>> recorded = new ArrayList<>();
            List<Statement<?>> completions = new ArrayList<>();
            for (Item i : items) {
                ObjectVersion v = i.v();
                byte[] sort = i.record.order();
                boolean isNull = nullId(v);
                WriteId wid = writeIdOf(sort);
                ByteBuffer cell = null;
                ByteBuffer layout = null;
                ByteBuffer row;
                if (v.deleteMarker()) {
                    row = VersionRows.encodeMarker(wid, v.lastModified(), isNull);
                } else {
                    recorded.addAll(content.recordWriteAsync(bucket, isNull ? KIND_OBJECT : KIND_VERSION,
                            isNull ? key : CassandraKeys.versionSlot(key, v.versionId()), wid, i.sha));
                    ObjectInfo info = v.info().withKey(key).withVersionId(isNull ? null : v.versionId());
                    cell = RowFormat.encodeObject(wid, i.stored.generation(), info);
                    row = VersionRows.encodeObject(cell, isNull);
                    if (i.record.partSizes() != null) {
                        layout = PartLayout.encode(wid, i.sha, i.record.partSizes());
                    }
                    if (i.stored.fresh()) {
                        completions.add(content.complete(i.sha, i.stored));
                    }
                }
                batch.add(t.q.insertVersion.bind(bucket, key, ByteBuffer.wrap(sort), row, layout));
                kept.add(new Placed(sort, true, null, cell, layout));
            }
            CassandraTables.joinAll(recorded);
            DirectoryIndex.Entry entry = DirectoryIndex.entryOf(key);
            batch.add(t.q.insertVersionKey.bind(bucket, entry.dir(), entry.shard(), entry.name()));
            kept.sort((a, b) -> Arrays.compareUnsigned(a.sort(), b.sort()));
            Placed newest = kept.get(0);
            if (newest.restored()) {
                setCurrent(bucket, key, entry, newest.cell(), newest.layout(), s.current() != null, batch);
            } else if (!Arrays.equals(newest.sort(), currentSort) && newest.stored() != null) {
                // The current version was replaced by an older one: the next newest is current again.
                VersionRows.Stored next = newest.stored();
                setCurrent(bucket, key, entry, next.marker() ? null : next.cell(), next.layout(), s.current() != null, batch);
            }
            versions.applyWith(batch, t.ids.nextAfter(s.floor()).timestampMicros(), completions);
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
