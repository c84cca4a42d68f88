package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Predicate;

/**
 * Content and its references: tables {@code contents} (generations of content), {@code chunks},
 * and the recorded writes in {@code writes} and {@code refs} that stand for references
 * (docs/cassandra-internals.md, "Why references stay exact without counters"). A write is recorded before
 * its row is written; after it, every recorded write of the slot that can no longer win is
 * released, and content whose {@code refs} partition is empty is reclaimed.
 *
 * <p>Takes no lock: every step is an idempotent insert or delete, and reclamation marks the
 * content's generations doomed before it looks for references again, while a writer records its
 * reference before it looks for content and skips doomed generations, so either the reclaimer
 * sees the reference or the writer sees the mark. Thread-safe.
 */
final class CassandraContent {
    private static final int WRITES_IN_FLIGHT = 4;
    private static final int PUBLIC_CHECK_LIMIT = 1000;
    /** Deletes of one content's chunks and generations sent as one unlogged batch, at most. */
    private static final int DELETES_PER_BATCH = 4;
    /** Contents one release works on side by side (a key may have many writes left over). */
    private static final int CONTENTS_AT_ONCE = 32;
    /** How long a hold outlives a writer that died holding it. */
    private static final int HOLD_TTL_SECONDS = 24 * 3600;

    private final CassandraTables t;
    private final CassandraBuckets buckets;
    /** References dropped, of which found gone already (another settler released them first), content reclaimed. */
    final LongAdder referencesDropped = new LongAdder();
    final LongAdder referencesGoneAlready = new LongAdder();
    final LongAdder reclaimed = new LongAdder();

    CassandraContent(CassandraTables t, CassandraBuckets buckets) {
        this.t = t;
        this.buckets = buckets;
    }

    /**
     * Where content was found or put, whether it was new, and its MD5 when it was read.
     * {@code deferred}: a new generation whose {@code contents} row is not written yet; {@link #complete}
     * writes it whole, in the logged batch of the row that first points at it.
     */
    record Stored(UUID generation, boolean fresh, String md5, long size, boolean deferred) {
    }

    /** Records a write under its slot and under its content, before the row is written. */
    void recordWrite(String bucket, int kind, String slot, WriteId wid, String sha256) {
        CassandraTables.joinAll(recordWriteAsync(bucket, kind, slot, wid, sha256));
    }

    /** {@link #recordWrite}, started: the caller joins the futures before it reads the content's generations. */
    List<CompletableFuture<AsyncResultSet>> recordWriteAsync(String bucket, int kind, String slot, WriteId wid,
                                                             String sha256) {
        return recordWriteAsync(bucket, kind, slot, wid, sha256, t.ids.nextMicros());
    }

    /**
     * As above, the {@code writes} row stamped {@code stamp} (from {@link WriteId.Generator#nextMicros}):
     * a writer that knows its record's stamp lets a later range release cover it ({@link Recorded.Range}).
     */
    List<CompletableFuture<AsyncResultSet>> recordWriteAsync(String bucket, int kind, String slot, WriteId wid,
                                                             String sha256, long stamp) {
        return List.of(
                t.async(t.write(t.q.insertWrite.bind(bucket, kind, slot, wid.buffer(), sha256, stamp))),
                t.async(t.write(t.q.insertRef.bind(sha256, kind, bucket, slot, wid.buffer()))));
    }

    /**
     * Holds content for a writer that records its write under the key only later (a conditional
     * write, whose write id is taken under the key's lease): a reference of the readers' lease kind
     * under {@code id}, with a TTL, which no settling of the key releases.
     */
    CompletableFuture<AsyncResultSet> holdAsync(String sha256, WriteId id) {
        return t.async(t.write(t.q.insertLease.bind(sha256, id.toString(), id.buffer(), HOLD_TTL_SECONDS)));
    }

    /** Ends a {@link #holdAsync hold}; {@code reclaim}: and reclaims the content when nothing else references it. */
    void unhold(String sha256, WriteId id, boolean reclaim) {
        if (reclaim) {
            dropReferences(sha256, List.of(new RefKey(CassandraKeys.KIND_READ, "", id.toString(), id.buffer())));
        } else {
            t.session.execute(t.write(t.q.deleteRef.bind(sha256, CassandraKeys.KIND_READ, "", id.toString(), id.buffer())));
        }
    }

    /** Removes the recorded writes of a slot that {@code dead} says can never be the row again. */
    void releaseWrites(String bucket, int kind, String slot, Predicate<WriteId> dead) {
        releaseWrites(bucket, kind, slot, dead, t.session.execute(t.protocol(t.q.selectWrites.bind(bucket, kind, slot))));
    }

    void releaseWrites(String bucket, int kind, String slot, Predicate<WriteId> dead, Iterable<Row> writes) {
        List<Recorded> released = new ArrayList<>();
        for (Recorded w : Recorded.all(writes)) {
            if (dead.test(w.wid())) {
                released.add(w);
            }
        }
        release(bucket, kind, slot, released);
    }

    /**
     * Releases every recorded write of a slot ordered before {@code below} (the caller knows each
     * can never be the row again), and {@code alsoDead}, which a range release of the slot may have
     * removed from {@code writes} already (a writer's own records): their rows of {@code writes}
     * go with one range tombstone ({@link Recorded.Range}) instead of one tombstone each.
     */
    void releaseWritesBelow(String bucket, int kind, String slot, WriteId below, Collection<Recorded> alsoDead) {
        long readStamp = t.ids.nextMicros();
        Map<WriteId, Recorded> dead = new LinkedHashMap<>();
        for (Recorded w : Recorded.all(t.session.execute(t.protocol(t.q.selectWrites.bind(bucket, kind, slot))))) {
            if (w.wid().compareTo(below) < 0) {
                dead.put(w.wid(), w);
            }
        }
        alsoDead.forEach(w -> dead.putIfAbsent(w.wid(), w));
        release(bucket, kind, slot, List.copyOf(dead.values()), new Recorded.Range(below, readStamp));
    }

    /**
     * Removes recorded writes (rows of {@code writes}) that can never be the row again, then
     * reclaims their content. References go before the writes that lead to them: a release cut
     * short leaves the write recorded, so the next settle of the slot finds it again. The contents
     * are released side by side ({@value #CONTENTS_AT_ONCE} at a time), and their writes deleted
     * while the contents' references are looked at again.
     */
    void release(String bucket, int kind, String slot, List<Recorded> dead) {
        release(bucket, kind, slot, dead, null);
    }

    /**
     * As above; {@code range} (may be null): the writes it {@link Recorded.Range#covers covers} go with
     * one range tombstone, sent with the last contents' writes (after every reference they lead
     * to is deleted); the others with one tombstone each.
     */
    void release(String bucket, int kind, String slot, List<Recorded> dead, Recorded.Range range) {
        if (dead.isEmpty()) {
            return;
        }
        Map<String, List<RefKey>> refs = new LinkedHashMap<>();
        Map<String, List<BatchableStatement<?>>> writes = new HashMap<>();
        for (Recorded r : dead) {
            refs.computeIfAbsent(r.sha256(), k -> new ArrayList<>()).add(new RefKey(kind, bucket, slot, r.wid().buffer()));
            List<BatchableStatement<?>> deletes = writes.computeIfAbsent(r.sha256(), k -> new ArrayList<>());
            if (range == null || !range.covers(r)) {
                deletes.add(t.q.deleteWrite.bind(t.ids.nextMicros(), bucket, kind, slot, r.wid().buffer()));
            }
        }
        List<Drop> drops = new ArrayList<>();
        refs.forEach((sha, mine) -> drops.add(new Drop(sha, mine)));
        for (int from = 0; from < drops.size(); from += CONTENTS_AT_ONCE) {
            int to = Math.min(drops.size(), from + CONTENTS_AT_ONCE);
            List<Drop> window = drops.subList(from, to);
            window.forEach(Drop::look);
            window.forEach(Drop::delete);
            window.forEach(Drop::awaitDeleted);
            List<BatchableStatement<?>> gone = new ArrayList<>();
            window.forEach(d -> gone.addAll(writes.get(d.sha256)));
            if (range != null && to == drops.size()) {
                gone.add(t.q.deleteWritesBelow.bind(range.stamp(), bucket, kind, slot, range.below().buffer()));
            }
            // One slot's writes share a partition: one write however many there are.
            CompletableFuture<AsyncResultSet> writesGone = gone.isEmpty() ? null : t.async(singlePartition(gone));
            window.forEach(Drop::lookAgain);
            window.forEach(Drop::finish);
            if (writesGone != null) {
                CassandraTables.join(writesGone);
            }
        }
    }

    /** A row of {@code refs} within its content's partition. */
    record RefKey(int kind, String bucket, String slot, ByteBuffer wid) {
        static RefKey of(Row r) {
            return new RefKey(r.getInt("kind"), r.getString("bucket"), r.getString("slot"), r.getByteBuffer("wid"));
        }
    }

    /**
     * Deletes references of one content and reclaims it when they were its last, in the fewest
     * round trips, in steps that {@link #release} runs for every content at once: the content's
     * references and generations read at once ({@link #look}); when others remain, the deletes,
     * then the references read again (two settlers releasing the last two references at once each
     * see the other's); otherwise the deletes and the doom marks in one statement (the {@code refs}
     * and {@code contents} rows of a digest share its partition key, so that is one mutation per
     * replica), then the references read again, as {@link #reclaim} does.
     */
    private final class Drop {
        private final String sha256;
        private final List<RefKey> mine;
        private CompletableFuture<AsyncResultSet> present;
        private CompletableFuture<AsyncResultSet> stored;
        private List<Row> generations;
        private boolean othersRemain;
        private UUID doom;
        private CompletableFuture<AsyncResultSet> deleted;
        private CompletableFuture<AsyncResultSet> again;

        Drop(String sha256, List<RefKey> mine) {
            this.sha256 = sha256;
            this.mine = mine;
        }

        void look() {
            present = t.async(t.protocol(t.q.selectRefs.bind(sha256, mine.size() + 1)));
            stored = t.async(t.protocol(t.q.selectGenerations.bind(sha256)));
        }

        void delete() {
            List<BatchableStatement<?>> deletes = new ArrayList<>();
            for (RefKey k : mine) {
                deletes.add(t.q.deleteRef.bind(sha256, k.kind(), k.bucket(), k.slot(), k.wid()));
            }
            int minePresent = 0;
            for (Row r : CassandraTables.join(present).currentPage()) {
                boolean isMine = mine.contains(RefKey.of(r));
                othersRemain |= !isMine;
                minePresent += isMine ? 1 : 0;
            }
            referencesDropped.add(mine.size());
            referencesGoneAlready.add(mine.size() - minePresent);
            generations = CassandraTables.allRows(CassandraTables.join(stored));
            if (!generations.isEmpty() && !othersRemain) {
                doom = Uuids.timeBased();
                for (Row g : generations) {
                    deletes.add(t.q.addDoom.bind(Set.of(doom), sha256, g.getUuid("generation")));
                }
            }
            deleted = t.async(singlePartition(deletes));
        }

        void awaitDeleted() {
            CassandraTables.join(deleted);
        }

        /** No generation: nothing to reclaim. Otherwise whether a reference remains (or appeared). */
        void lookAgain() {
            if (!generations.isEmpty()) {
                again = t.async(t.protocol(t.q.selectAnyRef.bind(sha256)));
            }
        }

        void finish() {
            if (again == null) {
                return;
            }
            boolean referenced = CassandraTables.join(again).one() != null;
            if (doom == null) {
                // The others may have been released meanwhile by a settler that saw this one's references.
                if (!referenced) {
                    reclaim(sha256);
                }
            } else if (referenced) {
                unmark(sha256, generations, doom);
            } else {
                deleteGenerations(sha256, generations);
            }
        }
    }

    /** Ends a hold's reference and reclaims the content when it was the last, as a release does. */
    private void dropReferences(String sha256, List<RefKey> mine) {
        Drop drop = new Drop(sha256, mine);
        drop.look();
        drop.delete();
        drop.awaitDeleted();
        drop.lookAgain();
        drop.finish();
    }

    /** Statements of one partition (one content's {@code refs} and {@code contents} rows) as one write. */
    private Statement<?> singlePartition(List<BatchableStatement<?>> statements) {
        if (statements.size() == 1) {
            return t.write((BoundStatement) statements.get(0));
        }
        return BatchStatement.newInstance(BatchType.UNLOGGED, statements).setConsistencyLevel(t.writeCl)
                .setIdempotent(true);
    }

    private void unmark(String sha256, List<Row> generations, UUID doom) {
        List<Statement<?>> unmarks = new ArrayList<>();
        for (Row g : generations) {
            unmarks.add(t.write(t.q.removeDoom.bind(Set.of(doom), sha256, g.getUuid("generation"))));
        }
        t.all(unmarks);
    }

    /**
     * Deletes doomed generations: their chunks and rows at once. Cut short, it leaves a doomed
     * generation or chunks without one, which the sweep finds.
     */
    private void deleteGenerations(String sha256, List<Row> generations) {
        reclaimed.increment();
        List<BatchableStatement<?>> deletes = new ArrayList<>();
        for (Row g : generations) {
            UUID gen = g.getUuid("generation");
            long size = g.isNull("size") ? 0 : g.getLong("size");
            for (int i = 0; (long) i * CassandraSchema.CHUNK_BYTES < size; i++) {
                deletes.add(t.q.deleteChunk.bind(sha256, gen, i));
            }
            deletes.add(t.q.deleteGeneration.bind(sha256, gen));
        }
        if (deletes.size() <= DELETES_PER_BATCH) {
            // A small content's chunks and generation: one request, which the coordinator spreads.
            t.session.execute(BatchStatement.newInstance(BatchType.UNLOGGED, deletes).setConsistencyLevel(t.writeCl)
                    .setIdempotent(true));
            return;
        }
        List<Statement<?>> each = new ArrayList<>();
        for (BatchableStatement<?> d : deletes) {
            each.add(t.write((BoundStatement) d));
        }
        t.all(each);
    }

    /**
     * Deletes content nothing references. Marks every generation doomed, then checks the
     * references again: a writer that recorded its reference too late for that check looks for
     * content after the mark was written, sees it and stores a new generation.
     */
    void reclaim(String sha256) {
        CompletableFuture<AsyncResultSet> anyRef = t.async(t.protocol(t.q.selectAnyRef.bind(sha256)));
        CompletableFuture<AsyncResultSet> stored = t.async(t.protocol(t.q.selectGenerations.bind(sha256)));
        if (CassandraTables.join(anyRef).one() != null) {
            return;
        }
        List<Row> generations = CassandraTables.allRows(CassandraTables.join(stored));
        if (generations.isEmpty()) {
            return;
        }
        UUID doom = Uuids.timeBased();
        List<Statement<?>> marks = new ArrayList<>();
        for (Row g : generations) {
            marks.add(t.write(t.q.addDoom.bind(Set.of(doom), sha256, g.getUuid("generation"))));
        }
        t.all(marks);
        if (t.session.execute(t.protocol(t.q.selectAnyRef.bind(sha256))).one() != null) {
            unmark(sha256, generations, doom);
            return;
        }
        deleteGenerations(sha256, generations);
    }

    /** Whether a generation row is complete and not doomed. */
    static boolean usable(Row g) {
        return !g.isNull("size") && !g.isNull("complete") && g.getBoolean("complete")
                && g.getSet("dooms", UUID.class).isEmpty();
    }

    /**
     * Finds a usable generation of the content or stores a new one. The caller's reference is
     * recorded (acknowledged) already.
     */
    Stored store(ContentSource content) throws IOException {
        return store(content, t.session.execute(t.protocol(t.q.selectGenerations.bind(content.sha256()))).all());
    }

    /**
     * As {@link #store(ContentSource)}, given the generations read while the caller's reference
     * was being recorded. A usable one is read again now that the reference is acknowledged: a
     * reclaimer that doomed it before that read then either sees the reference or is seen here.
     * A new generation is safe without that: no reclaimer has read it.
     */
    Stored store(ContentSource content, List<Row> generations) throws IOException {
        return store(content, generations, false);
    }

    /**
     * As above; {@code deferred}: a new generation's {@code contents} row is left to
     * {@link #complete}, for a caller that writes it in the logged batch of its row (one write
     * instead of the row now and the mark later). Such a caller {@link #discard}s the chunks when
     * it writes no row.
     */
    Stored store(ContentSource content, List<Row> generations, boolean deferred) throws IOException {
        String sha = content.sha256();
        for (Row r : generations) {
            if (usable(r) && r.getLong("size") == content.size()) {
                Row again = t.session.execute(t.protocol(t.q.selectGeneration.bind(sha, r.getUuid("generation")))).one();
                if (again != null && usable(again) && again.getLong("size") == content.size()) {
                    return new Stored(r.getUuid("generation"), false, null, content.size(), false);
                }
            }
        }
        return storeNew(content, deferred);
    }

    /** A stored generation not yet marked complete: the caller marks it after its row is written, or at once. */
    Stored storeNew(ContentSource content, boolean deferred) throws IOException {
        String sha = content.sha256();
        UUID gen = Uuids.timeBased();
        MessageDigest sha256 = CassandraTables.digest("SHA-256");
        MessageDigest md5 = CassandraTables.digest("MD5");
        List<CompletableFuture<AsyncResultSet>> inFlight = new ArrayList<>();
        if (!deferred) {
            // Until marked complete the generation is not used, so its row and chunks go in parallel.
            inFlight.add(t.session.executeAsync(t.write(t.q.insertGeneration.bind(sha, gen, content.size(),
                    CassandraSchema.CHUNK_BYTES))).toCompletableFuture());
        }
        long total = 0;
        try (InputStream in = content.open()) {
            for (int index = 0; ; index++) {
                byte[] chunk = in.readNBytes(CassandraSchema.CHUNK_BYTES);
                if (chunk.length == 0) {
                    break;
                }
                total += chunk.length;
                if (total > content.size()) {
                    break;
                }
                sha256.update(chunk);
                md5.update(chunk);
                if (inFlight.size() == WRITES_IN_FLIGHT) {
                    CassandraTables.join(inFlight.remove(0));
                }
                inFlight.add(t.session.executeAsync(t.write(t.q.insertChunk.bind(sha, gen, index, ByteBuffer.wrap(chunk))))
                        .toCompletableFuture());
            }
        }
        for (CompletableFuture<AsyncResultSet> f : inFlight) {
            CassandraTables.join(f);
        }
        if (total != content.size() || !Hex.encode(sha256.digest()).equals(sha)) {
            throw new IOException("content offered as " + sha + " (" + content.size() + " bytes) does not match its bytes");
        }
        return new Stored(gen, true, Hex.encode(md5.digest()), content.size(), deferred);
    }

    /**
     * Marks a new generation complete, so other writers may use it. Its chunks are written; the
     * writer's own row needs no mark, so the two go in parallel.
     */
    BatchableStatement<?> complete(String sha256, Stored stored) {
        if (stored.deferred()) {
            return t.write(t.q.insertCompleteGeneration.bind(sha256, stored.generation(), stored.size(),
                    CassandraSchema.CHUNK_BYTES));
        }
        return t.write(t.q.completeGeneration.bind(sha256, stored.generation()));
    }

    /**
     * Deletes the chunks of a new deferred generation whose row was never written (a refused
     * write): nothing names that generation, so nothing can use them.
     */
    void discard(String sha256, Stored stored) {
        if (!stored.fresh() || !stored.deferred()) {
            return;
        }
        List<Statement<?>> deletes = new ArrayList<>();
        for (int i = 0; (long) i * CassandraSchema.CHUNK_BYTES < stored.size(); i++) {
            deletes.add(t.write(t.q.deleteChunk.bind(sha256, stored.generation(), i)));
        }
        t.all(deletes);
    }

    /** Whether a current object of a public-read bucket holds this content (looking at most at 1000 references). */
    boolean isPublic(String sha256, CassandraObjects objects) {
        if (!Hex.isSha256(sha256)) {
            return false;
        }
        Map<String, Boolean> publicBuckets = new HashMap<>();
        int seen = 0;
        for (Row r : t.session.execute(t.protocol(t.q.selectObjectRefs.bind(sha256)))) {
            if (++seen > PUBLIC_CHECK_LIMIT) {
                return false;
            }
            String bucket = r.getString("bucket");
            if (publicBuckets.computeIfAbsent(bucket, buckets::isPublic)) {
                String slot = r.getString("slot");
                String key = r.getInt("kind") == CassandraKeys.KIND_VERSION ? CassandraKeys.keyOfVersionSlot(slot) : slot;
                RowFormat.Stored<ObjectInfo> row = objects.read(bucket, key, t.protocolCl);
                if (row != null && row.value().sha256().equals(sha256)) {
                    return true;
                }
            }
        }
        return false;
    }
}
