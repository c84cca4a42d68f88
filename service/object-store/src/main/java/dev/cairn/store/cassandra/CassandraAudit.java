package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.CassandraKeys.KIND_OBJECT;
import static dev.cairn.store.cassandra.CassandraKeys.KIND_PART;
import static dev.cairn.store.cassandra.CassandraKeys.KIND_VERSION;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.cairn.store.VersionId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * Reads every table of the reference scheme and checks it against the rows that hold
 * references (docs/cassandra-internals.md, "Audit and sweep"); the sweep then releases what a writer,
 * settler or reclaimer cut off by a crash left behind. Problems are references missing for a row
 * or content missing under one: those lose data. Leftovers only keep content longer: recorded
 * writes and references no row holds, content nothing references, chunks of no generation, and
 * doom marks of reclaimers that died.
 *
 * <p>Reads whole tables into memory: a tool for tests and for an operator after a crash, not
 * for a store of millions of objects. Thread-safety: one run per instance.
 */
final class CassandraAudit {
    private final CassandraTables t;
    private final CassandraContent content;

    CassandraAudit(CassandraTables t, CassandraContent content) {
        this.t = t;
        this.content = content;
    }

    /** A slot's recorded write, as {@code writes} or {@code refs} holds it. */
    private record Write(String bucket, int kind, String slot, WriteId wid, String sha256) {
    }

    private record Slot(String bucket, int kind, String slot) {
    }

    private record Holder(WriteId wid, String sha256, UUID generation, long size) {
    }

    private record Generation(String sha256, UUID generation) {
    }

    /** What one pass read: the rows that hold references, and the bookkeeping around them. */
    private final class Snapshot {
        final Map<Slot, Holder> holders = new HashMap<>();
        final Set<Write> writes = new HashSet<>();
        final Set<Write> refs = new HashSet<>();
        final Map<Generation, Row> generations = new HashMap<>();
        final Set<String> referenced = new HashSet<>();
        final Map<Generation, Set<Integer>> chunks = new HashMap<>();
        /** Parts whose upload is gone: a completion or abort cut off before it dropped them. */
        final Map<String, Holder> orphanParts = new HashMap<>();
        int objects;
        int versions;
        int parts;
        long chunkCount;

        Snapshot() {
            String ks = t.keyspace;
            for (Row r : scan("SELECT bucket, key, row FROM " + ks + ".objects")) {
                RowFormat.Stored<dev.cairn.store.ObjectInfo> o = RowFormat.decodeObject(r.getString("key"), r.getByteBuffer("row"));
                holders.put(slotOf(r.getString("bucket"), r.getString("key"), o.value().versionId()),
                        new Holder(o.writeId(), o.value().sha256(), o.generation(), o.value().size()));
                objects++;
            }
            for (Row r : scan("SELECT bucket, key, sort, row, layout, writetime(row) AS ts FROM " + ks + ".versions")) {
                VersionRows.Stored v = VersionRows.decode(r.getString("key"), r);
                versions++;
                if (!v.marker()) {
                    holders.put(slotOf(r.getString("bucket"), r.getString("key"), v.versionId()),
                            new Holder(v.wid(), v.info().sha256(), v.generation(), v.info().size()));
                }
            }
            Map<String, String> uploadBuckets = new HashMap<>();
            for (Row r : scan("SELECT bucket, upload_id FROM " + ks + ".uploads")) {
                uploadBuckets.put(r.getString("upload_id"), r.getString("bucket"));
            }
            for (Row r : scan("SELECT upload_id, part_number, row FROM " + ks + ".parts")) {
                String bucket = uploadBuckets.get(r.getString("upload_id"));
                RowFormat.Stored<dev.cairn.store.PartInfo> p = RowFormat.decodePart(r.getInt("part_number"), r.getByteBuffer("row"));
                String slot = CassandraKeys.partSlot(r.getString("upload_id"), r.getInt("part_number"));
                Holder h = new Holder(p.writeId(), p.value().sha256(), p.generation(), p.value().size());
                if (bucket == null) {
                    orphanParts.put(slot, h);
                } else {
                    holders.put(new Slot(bucket, KIND_PART, slot), h);
                    parts++;
                }
            }
            for (Row r : scan("SELECT bucket, kind, slot, wid, sha256 FROM " + ks + ".writes")) {
                writes.add(new Write(r.getString("bucket"), r.getInt("kind"), r.getString("slot"),
                        WriteId.of(r.getByteBuffer("wid")), r.getString("sha256")));
            }
            for (Row r : scan("SELECT sha256, kind, bucket, slot, wid FROM " + ks + ".refs")) {
                referenced.add(r.getString("sha256"));
                int kind = r.getInt("kind");
                if (kind == KIND_OBJECT || kind == KIND_PART || kind == KIND_VERSION) {
                    refs.add(new Write(r.getString("bucket"), kind, r.getString("slot"),
                            WriteId.of(r.getByteBuffer("wid")), r.getString("sha256")));
                }
            }
            for (Row r : scan("SELECT sha256, generation, size, complete, dooms FROM " + ks + ".contents")) {
                generations.put(new Generation(r.getString("sha256"), r.getUuid("generation")), r);
            }
            for (Row r : scan("SELECT DISTINCT sha256, generation, chunk FROM " + ks + ".chunks")) {
                chunks.computeIfAbsent(new Generation(r.getString("sha256"), r.getUuid("generation")), g -> new HashSet<>())
                        .add(r.getInt("chunk"));
                chunkCount++;
            }
        }

        boolean holds(Write w) {
            Holder h = holders.get(new Slot(w.bucket(), w.kind(), w.slot()));
            return h != null && h.wid().equals(w.wid());
        }
    }

    CassandraObjectStore.AuditReport audit() {
        Snapshot s = new Snapshot();
        List<String> problems = new ArrayList<>();
        List<String> leftovers = new ArrayList<>();
        s.holders.forEach((slot, h) -> {
            Write w = new Write(slot.bucket(), slot.kind(), slot.slot(), h.wid(), h.sha256());
            String what = (slot.kind() == KIND_PART ? "part " : slot.kind() == KIND_VERSION ? "version " : "object ")
                    + slot.bucket() + "/" + slot.slot();
            if (!s.writes.contains(w)) {
                problems.add(what + ": its write " + h.wid() + " is not recorded in writes");
            }
            if (!s.refs.contains(w)) {
                problems.add(what + ": its reference " + h.wid() + " to " + h.sha256() + " is missing from refs");
            }
            Generation g = new Generation(h.sha256(), h.generation());
            Row gen = s.generations.get(g);
            if (gen == null) {
                problems.add(what + ": content " + h.sha256() + " generation " + h.generation() + " is gone");
                return;
            }
            Set<Integer> have = s.chunks.getOrDefault(g, Set.of());
            for (int i = 0; (long) i * CassandraSchema.CHUNK_BYTES < h.size(); i++) {
                if (!have.contains(i)) {
                    problems.add(what + ": chunk " + i + " of " + h.sha256() + " generation " + h.generation() + " is gone");
                }
            }
        });
        s.orphanParts.forEach((slot, h) -> leftovers.add("part " + slot + " of an upload that is gone"));
        for (Write w : s.writes) {
            if (!s.holds(w)) {
                leftovers.add("write " + w + " held by no row");
            }
        }
        for (Write w : s.refs) {
            if (!s.holds(w)) {
                leftovers.add("reference " + w + " held by no row");
            }
        }
        s.generations.forEach((g, row) -> {
            if (!s.referenced.contains(g.sha256())) {
                leftovers.add("content " + g.sha256() + " generation " + g.generation() + " referenced by nothing");
            } else if (!row.getSet("dooms", UUID.class).isEmpty()) {
                leftovers.add("content " + g.sha256() + " generation " + g.generation() + " referenced, yet marked doomed");
            }
        });
        s.chunks.forEach((g, indexes) -> {
            if (!s.generations.containsKey(g)) {
                leftovers.add(indexes.size() + " chunks of " + g.sha256() + " generation " + g.generation()
                        + " without their generation");
            }
        });
        return new CassandraObjectStore.AuditReport(s.objects, s.versions, s.parts, s.writes.size(), s.refs.size(), s.generations.size(), s.chunkCount,
                problems, leftovers);
    }

    /**
     * Releases leftovers older than {@code grace}, and any write ordered before its slot's
     * current row whatever its age (that one can never be the row again). A write with no row
     * in its slot may still be in flight, or be replayed late by a hint: {@code grace} must
     * outlast both (requests time out in seconds; hints are kept three hours by default).
     */
    CassandraObjectStore.SweepReport sweep(Duration grace) {
        Snapshot s = new Snapshot();
        long cutoffMicros = (t.clock.millis() - grace.toMillis()) * 1000;
        int parts = 0;
        for (Map.Entry<String, Holder> e : s.orphanParts.entrySet()) {
            if (e.getValue().wid().timestampMicros() < cutoffMicros) {
                String slot = e.getKey();
                int slash = slot.lastIndexOf('/');
                // As a drop deletes a part: its writes are then released below, the row being gone.
                t.session.execute(t.write(t.q.deletePart.bind(slot.substring(0, slash),
                        Integer.parseInt(slot.substring(slash + 1)))).setQueryTimestamp(t.ids.nextMicros()));
                parts++;
            }
        }
        Map<Slot, List<Recorded>> released = new HashMap<>();
        int writes = 0;
        for (Write w : s.writes) {
            if (!s.holds(w) && releasable(w, cutoffMicros)) {
                released.computeIfAbsent(new Slot(w.bucket(), w.kind(), w.slot()), k -> new ArrayList<>())
                        .add(new Recorded(w.wid(), w.sha256()));
                writes++;
            }
        }
        released.forEach((slot, dead) -> content.release(slot.bucket(), slot.kind(), slot.slot(), dead));
        int refs = 0;
        for (Write w : s.refs) {
            // A reference recorded without its write (the two go in parallel) is found by no settle.
            if (!s.holds(w) && !s.writes.contains(w) && releasable(w, cutoffMicros)) {
                t.session.execute(t.write(t.q.deleteRef.bind(w.sha256(), w.kind(), w.bucket(), w.slot(), w.wid().buffer())));
                content.reclaim(w.sha256());
                refs++;
            }
        }
        int contents = 0;
        int dooms = 0;
        Set<String> reclaimed = new HashSet<>();
        long cutoffMillis = cutoffMicros / 1000;
        for (Map.Entry<Generation, Row> e : s.generations.entrySet()) {
            Generation g = e.getKey();
            if (!s.referenced.contains(g.sha256())) {
                if (Uuids.unixTimestamp(g.generation()) < cutoffMillis && reclaimed.add(g.sha256())) {
                    content.reclaim(g.sha256());
                    contents++;
                }
                continue;
            }
            for (UUID doom : e.getValue().getSet("dooms", UUID.class)) {
                if (Uuids.unixTimestamp(doom) < cutoffMillis) {
                    t.session.execute(t.write(t.q.removeDoom.bind(Set.of(doom), g.sha256(), g.generation())));
                    dooms++;
                }
            }
        }
        int chunks = 0;
        for (Map.Entry<Generation, Set<Integer>> e : s.chunks.entrySet()) {
            Generation g = e.getKey();
            if (!s.generations.containsKey(g) && Uuids.unixTimestamp(g.generation()) < cutoffMillis) {
                for (int index : e.getValue()) {
                    t.session.execute(t.write(t.q.deleteChunk.bind(g.sha256(), g.generation(), index)));
                    chunks++;
                }
            }
        }
        return new CassandraObjectStore.SweepReport(parts, writes, refs, contents, chunks, dooms);
    }

    /** Whether a write no row holds can be released: ordered before the slot's current row, or old enough. */
    private boolean releasable(Write w, long cutoffMicros) {
        Holder now = current(w);
        if (now != null) {
            return w.wid().compareTo(now.wid()) < 0 || w.wid().timestampMicros() < cutoffMicros;
        }
        return w.wid().timestampMicros() < cutoffMicros;
    }

    /** The slot an object version's write is recorded under: its key's for the version {@code null}. */
    private static Slot slotOf(String bucket, String key, String versionId) {
        return versionId == null || VersionId.NULL.equals(versionId) ? new Slot(bucket, KIND_OBJECT, key)
                : new Slot(bucket, KIND_VERSION, CassandraKeys.versionSlot(key, versionId));
    }

    /**
     * The slot's row read again at quorum, now: the snapshot may be older than a write since. For
     * a key with versions, the slot of the key is the version {@code null}'s, wherever it is; none
     * (so only age releases the slot's writes) when there is no such version.
     */
    private Holder current(Write w) {
        if (w.kind() == KIND_VERSION) {
            String key = CassandraKeys.keyOfVersionSlot(w.slot());
            byte[] sort = VersionId.decode(w.slot().substring(key.length() + 1));
            Row r = sort == null ? null : t.session.execute(t.protocol(t.q.selectVersion.bind(w.bucket(), key,
                    java.nio.ByteBuffer.wrap(sort)))).one();
            VersionRows.Stored v = r == null ? null : VersionRows.decode(key, r);
            return v == null || v.marker() ? null : new Holder(v.wid(), v.info().sha256(), v.generation(), v.info().size());
        }
        if (w.kind() == KIND_OBJECT) {
            List<VersionRows.Stored> versions = new ArrayList<>();
            for (Row r : t.session.execute(t.protocol(t.q.selectVersions.bind(w.bucket(), w.slot())))) {
                versions.add(VersionRows.decode(w.slot(), r));
            }
            Row r = t.session.execute(t.protocol(t.q.selectObject.bind(w.bucket(), w.slot()))).one();
            RowFormat.Stored<dev.cairn.store.ObjectInfo> o = r == null ? null
                    : RowFormat.decodeObject(w.slot(), r.getByteBuffer("row"));
            if (!versions.isEmpty()) {
                for (VersionRows.Stored v : versions) {
                    if (v.nullId() && !v.marker()) {
                        return new Holder(v.wid(), v.info().sha256(), v.generation(), v.info().size());
                    }
                }
                boolean unlisted = o != null && o.value().versionId() == null && !versions.get(0).wid().equals(o.writeId());
                return unlisted ? new Holder(o.writeId(), o.value().sha256(), o.generation(), o.value().size()) : null;
            }
            if (o == null) {
                return null;
            }
            return new Holder(o.writeId(), o.value().sha256(), o.generation(), o.value().size());
        }
        int slash = w.slot().lastIndexOf('/');
        int partNumber = Integer.parseInt(w.slot().substring(slash + 1));
        Row r = t.session.execute(t.protocol(t.q.selectPart.bind(w.slot().substring(0, slash), partNumber))).one();
        if (r == null) {
            return null;
        }
        RowFormat.Stored<dev.cairn.store.PartInfo> p = RowFormat.decodePart(partNumber, r.getByteBuffer("row"));
        return new Holder(p.writeId(), p.value().sha256(), p.generation(), p.value().size());
    }

    private Iterable<Row> scan(String cql) {
        return t.session.execute(SimpleStatement.newInstance(cql).setConsistencyLevel(t.protocolCl).setPageSize(1000));
    }
}
