package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.TestKeyspace.content;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.Versioning;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a PUT costs the cluster and what its bookkeeping leaves: a new generation's row written
 * once in the object row's batch, refused writes that stored content leaving no chunks, releases
 * that drop the last reference and doom the content in one write, and a release cut short
 * leaving only what the sweep finds.
 */
@Tag("integration")
class CassandraPutCostTest {
    private static final String KEYSPACE = "putcost";
    private static TestKeyspace keyspace;

    @BeforeAll
    static void schema() {
        keyspace = TestKeyspace.of(KEYSPACE);
    }

    private static List<Row> rows(String cql, Object... values) {
        return keyspace.session().execute(SimpleStatement.newInstance(cql.replace("ks.", KEYSPACE + "."), values)).all();
    }

    private static String bucketName(String prefix) {
        return prefix + "-" + Long.toHexString(System.nanoTime());
    }

    /** The audit's findings that name this content. */
    private static List<String> findings(CassandraObjectStore store, String sha256) {
        CassandraObjectStore.AuditReport report = store.audit();
        List<String> problems = report.problems().stream().filter(p -> p.contains(sha256)).toList();
        assertTrue(problems.isEmpty(), "nothing referenced is gone: " + problems);
        return report.leftovers().stream().filter(p -> p.contains(sha256)).toList();
    }

    private static String readAll(ObjectRead read) throws Exception {
        try (read; InputStream in = read.openAll()) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aNewGenerationIsWrittenOnceCompleteInTheRowsLoggedBatch() throws Exception {
        String bucket = bucketName("once");
        StatementTrace trace = new StatementTrace();
        try (CqlSession traced = keyspace.traced(trace);
             CassandraObjectStore store = keyspace.storeOn(traced)) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            store.putObject(PutRequest.of(bucket, "photos/warm", content("warm"), "e"));
            store.awaitSettled();
            trace.clear();
            ContentSource c = content("fresh " + bucket);
            store.putObject(PutRequest.of(bucket, "photos/k", c, c.md5()));
            List<StatementTrace.Call> answered = trace.callsOnceRecorded(q -> q.startsWith("BATCH(LOGGED"));
            List<String> touchingContents = answered.stream().map(StatementTrace.Call::cql)
                    .filter(q -> q.contains("contents") && !q.startsWith("SELECT")).toList();
            assertEquals(1, touchingContents.size(), "one write of the generation row: " + answered);
            assertTrue(touchingContents.get(0).startsWith("BATCH(LOGGED") && touchingContents.get(0).contains("INSERT INTO objects"),
                    "in the row's logged batch: " + touchingContents);

            Row object = rows("SELECT row, writetime(row) AS ts FROM ks.objects WHERE bucket = ? AND key = ?",
                    bucket, "photos/k").get(0);
            UUID generation = RowFormat.decodeObject("photos/k", object.getByteBuffer("row")).generation();
            Row g = rows("SELECT size, complete, writetime(complete) AS ts FROM ks.contents WHERE sha256 = ? AND generation = ?",
                    c.sha256(), generation).get(0);
            assertTrue(g.getBoolean("complete"));
            assertEquals(c.size(), g.getLong("size"));
            assertEquals(object.getLong("ts"), g.getLong("ts"), "written at the row's timestamp, in its batch");
            assertEquals("fresh " + bucket, readAll(store.getObject(bucket, "photos/k")));
            store.awaitSettled();
            assertTrue(findings(store, c.sha256()).isEmpty());
        }
    }

    @Test
    void aVersionedWriteRefusedUnderTheLeaseLeavesNoChunks() throws Exception {
        String bucket = bucketName("refused-v");
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            store.setBucketVersioning(bucket, Versioning.ENABLED);
            ContentSource first = content("first " + bucket);
            store.putObject(PutRequest.of(bucket, "k", first, first.md5()));
            // A versioned write checks its condition only under the lease, after storing its content.
            ContentSource refused = content("refused " + bucket);
            StoreException e = assertThrows(StoreException.class, () ->
                    store.putObject(PutRequest.of(bucket, "k", refused, refused.md5()).withOnlyIfAbsent(true)));
            assertEquals(StoreException.Reason.PRECONDITION_FAILED, e.reason());
            store.awaitSettled();
            assertTrue(rows("SELECT generation FROM ks.contents WHERE sha256 = ?", refused.sha256()).isEmpty());
            assertTrue(rows("SELECT kind FROM ks.refs WHERE sha256 = ?", refused.sha256()).isEmpty());
            assertEquals(List.of(), findings(store, refused.sha256()), "no chunks left without their generation");
            assertEquals("first " + bucket, readAll(store.getObject(bucket, "k")));
        }
    }

    @Test
    void aConditionalWriteThatCannotTakeTheLeaseLeavesNoChunks() throws Exception {
        String bucket = bucketName("refused-c");
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            ContentSource first = content("first " + bucket);
            store.putObject(PutRequest.of(bucket, "k", first, first.md5()));
            UUID holder = UUID.randomUUID();
            assertTrue(keyspace.session().execute(SimpleStatement.newInstance("INSERT INTO " + KEYSPACE
                    + ".key_locks (bucket, key, holder) VALUES (?, ?, ?) IF NOT EXISTS USING TTL 120", bucket, "k", holder))
                    .wasApplied());
            try {
                ContentSource blocked = content("blocked " + bucket);
                StoreException e = assertThrows(StoreException.class, () -> store.putObject(PutRequest.of(bucket, "k", blocked, blocked.md5())
                        .withIfMatch("*")));
                assertEquals(StoreException.Reason.CONDITIONAL_CONFLICT, e.reason());
                store.awaitSettled();
                assertTrue(rows("SELECT generation FROM ks.contents WHERE sha256 = ?", blocked.sha256()).isEmpty());
                assertEquals(List.of(), findings(store, blocked.sha256()), "no chunks left without their generation");
            } finally {
                keyspace.session().execute(SimpleStatement.newInstance("DELETE FROM " + KEYSPACE
                        + ".key_locks WHERE bucket = ? AND key = ? IF holder = ?", bucket, "k", holder));
            }
            assertEquals("first " + bucket, readAll(store.getObject(bucket, "k")));
        }
    }

    @Test
    void aReleaseKeepsSharedContentAndDropsTheLastReferenceWithItsDoomInOneWrite() throws Exception {
        String bucket = bucketName("shared");
        StatementTrace trace = new StatementTrace();
        try (CqlSession traced = keyspace.traced(trace);
             CassandraObjectStore store = keyspace.storeOn(traced)) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            ContentSource shared = content("shared " + bucket);
            store.putObject(PutRequest.of(bucket, "a", shared, shared.md5()));
            store.putObject(PutRequest.of(bucket, "b", shared, shared.md5()));
            ContentSource other = content("other " + bucket);
            store.putObject(PutRequest.of(bucket, "a", other, other.md5()));
            store.awaitSettled();
            Row kept = rows("SELECT complete, dooms FROM ks.contents WHERE sha256 = ?", shared.sha256()).get(0);
            assertTrue(kept.getBoolean("complete"));
            assertTrue(kept.getSet("dooms", UUID.class).isEmpty(), "content another key holds is not doomed");
            assertEquals(1, rows("SELECT kind FROM ks.refs WHERE sha256 = ?", shared.sha256()).size());
            assertEquals("shared " + bucket, readAll(store.getObject(bucket, "b")));

            trace.clear();
            store.putObject(PutRequest.of(bucket, "b", other, other.md5()));
            store.awaitSettled();
            assertTrue(trace.calls().stream().map(StatementTrace.Call::cql).anyMatch(q -> q.startsWith("BATCH(UNLOGGED")
                    && q.contains("DELETE FROM refs") && q.contains("dooms = dooms +")),
                    "the last reference goes with the doom marks in one write: " + trace.calls());
            assertTrue(rows("SELECT generation FROM ks.contents WHERE sha256 = ?", shared.sha256()).isEmpty(),
                    "the last release reclaims");
            assertTrue(rows("SELECT kind FROM ks.refs WHERE sha256 = ?", shared.sha256()).isEmpty());
            assertEquals(List.of(), findings(store, shared.sha256()));
            assertEquals("other " + bucket, readAll(store.getObject(bucket, "a")));
            assertEquals("other " + bucket, readAll(store.getObject(bucket, "b")));
        }
    }

    @Test
    void theLastTwoReferencesReleasedAtOnceStillReclaim() throws Exception {
        String bucket = bucketName("pair");
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            for (int round = 0; round < 5; round++) {
                ContentSource shared = content("pair " + round + " " + bucket);
                store.putObject(PutRequest.of(bucket, "a", shared, shared.md5()));
                store.putObject(PutRequest.of(bucket, "b", shared, shared.md5()));
                store.awaitSettled();
                ExecutorService pool = Executors.newFixedThreadPool(2);
                try {
                    List<Future<?>> both = new ArrayList<>();
                    for (String key : List.of("a", "b")) {
                        ContentSource next = content("next " + key + " " + round + " " + bucket);
                        both.add(pool.submit(() -> store.putObject(PutRequest.of(bucket, key, next, next.md5()))));
                    }
                    for (Future<?> f : both) {
                        f.get(60, TimeUnit.SECONDS);
                    }
                } finally {
                    pool.shutdownNow();
                }
                store.awaitSettled();
                assertTrue(rows("SELECT generation FROM ks.contents WHERE sha256 = ?", shared.sha256()).isEmpty(),
                        "content whose last two references went at once is reclaimed (round " + round + ")");
                assertTrue(rows("SELECT kind FROM ks.refs WHERE sha256 = ?", shared.sha256()).isEmpty());
            }
        }
    }

    @Test
    void aReleaseCutShortAfterItsDoomLeavesGarbageTheSweepFinds() throws Exception {
        String bucket = bucketName("cut");
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            ContentSource current = content("current " + bucket);
            store.putObject(PutRequest.of(bucket, "k", current, current.md5()));
            store.awaitSettled();
            // What a process killed right after the release's one write leaves of a superseded write:
            // its reference gone, its generation doomed, its chunks and its record still there.
            WriteId currentWid = RowFormat.writeIdOf(rows("SELECT row FROM ks.objects WHERE bucket = ? AND key = ?",
                    bucket, "k").get(0).getByteBuffer("row"));
            ByteBuffer superseded = ByteBuffer.allocate(16);
            superseded.putLong(currentWid.timestampMicros() - 1_000_000).putLong(42).flip();
            String sha = BytesContent.of(("superseded " + bucket).getBytes(StandardCharsets.UTF_8)).sha256();
            UUID generation = Uuids.startOf(System.currentTimeMillis() - 3_600_000);
            rows("INSERT INTO ks.writes (bucket, kind, slot, wid, sha256) VALUES (?, 0, ?, ?, ?)", bucket, "k", superseded, sha);
            rows("INSERT INTO ks.contents (sha256, generation, size, chunk_bytes, complete, dooms) VALUES (?, ?, 21, ?, true, ?)",
                    sha, generation, CassandraSchema.CHUNK_BYTES, Set.of(Uuids.timeBased()));
            rows("INSERT INTO ks.chunks (sha256, generation, chunk, data) VALUES (?, ?, 0, ?)", sha, generation,
                    ByteBuffer.wrap(new byte[21]));
            assertEquals(2, findings(store, sha).size(), "a write no row holds and content nothing references");

            store.sweep(Duration.ZERO);
            assertEquals(List.of(), findings(store, sha));
            assertTrue(rows("SELECT generation FROM ks.contents WHERE sha256 = ?", sha).isEmpty());
            assertTrue(rows("SELECT wid FROM ks.writes WHERE bucket = ? AND kind = 0 AND slot = ?", bucket, "k").stream()
                    .noneMatch(r -> r.getByteBuffer("wid").equals(superseded)));
            assertNotNull(rows("SELECT kind FROM ks.refs WHERE sha256 = ?", current.sha256()).get(0));
            assertEquals("current " + bucket, readAll(store.getObject(bucket, "k")));
        }
    }

    /** Holds up both settling threads until the returned latch is counted down. */
    private static CountDownLatch holdSettling(CassandraObjectStore store) throws InterruptedException {
        CountDownLatch started = new CountDownLatch(Settler.THREADS);
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < Settler.THREADS; i++) {
            store.settler().submit(() -> {
                started.countDown();
                try {
                    release.await(120, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertTrue(started.await(60, TimeUnit.SECONDS), "every settling thread held");
        return release;
    }

    private static List<ContentSource> putMany(CassandraObjectStore store, String bucket, String key, int count)
            throws Exception {
        List<ContentSource> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ContentSource c = content(key + " " + i + " " + bucket);
            store.putObject(PutRequest.of(bucket, key, c, c.md5()));
            written.add(c);
        }
        return written;
    }

    private static List<Row> writesOf(String bucket, String key) {
        return rows("SELECT wid, sha256 FROM ks.writes WHERE bucket = ? AND kind = 0 AND slot = ?", bucket, key);
    }

    @Test
    void coalescedSettlesReleaseEverySupersededWriteAndNeverTheCurrentOne() throws Exception {
        String bucket = bucketName("coalesce");
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            CountDownLatch release = holdSettling(store);
            store.takeSettleStats();
            List<ContentSource> kept = putMany(store, bucket, "kept", 5);
            List<ContentSource> deleted = putMany(store, bucket, "deleted", 3);
            store.deleteObject(bucket, "deleted");
            release.countDown();
            store.awaitSettled();
            assertTrue(store.takeSettleStats().contains(" coalesced 6 "), "five writes of one key and three of another settled as two");

            ContentSource current = kept.get(kept.size() - 1);
            assertEquals("kept 4 " + bucket, readAll(store.getObject(bucket, "kept")));
            List<Row> left = writesOf(bucket, "kept");
            assertEquals(1, left.size(), "only the current write stays recorded");
            assertEquals(current.sha256(), left.get(0).getString("sha256"));
            assertEquals(1, rows("SELECT kind FROM ks.refs WHERE sha256 = ?", current.sha256()).size());
            assertEquals(List.of(), findings(store, current.sha256()));
            for (ContentSource gone : kept.subList(0, kept.size() - 1)) {
                assertTrue(rows("SELECT generation FROM ks.contents WHERE sha256 = ?", gone.sha256()).isEmpty(),
                        "superseded content is reclaimed");
                assertTrue(rows("SELECT kind FROM ks.refs WHERE sha256 = ?", gone.sha256()).isEmpty());
            }
            assertTrue(writesOf(bucket, "deleted").isEmpty(), "a delete releases every write before it");
            for (ContentSource gone : deleted) {
                assertTrue(rows("SELECT generation FROM ks.contents WHERE sha256 = ?", gone.sha256()).isEmpty());
            }
        }
    }

    @Test
    void settlesLostWithTheProcessLeaveOnlyWhatTheSweepClears() throws Exception {
        String bucket = bucketName("lost");
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            CountDownLatch release = holdSettling(store);
            List<ContentSource> written = putMany(store, bucket, "k", 4);
            assertEquals(1, store.settler().loseQueued(), "the four writes' settles were one queued group");
            release.countDown();
            store.awaitSettled();
            ContentSource current = written.get(written.size() - 1);
            for (ContentSource superseded : written.subList(0, written.size() - 1)) {
                assertEquals(2, findings(store, superseded.sha256()).size(),
                        "a superseded write and its reference are left over, nothing is lost");
            }
            assertEquals(4, writesOf(bucket, "k").size());

            store.sweep(Duration.ZERO);
            for (ContentSource superseded : written) {
                assertEquals(List.of(), findings(store, superseded.sha256()));
            }
            assertEquals(1, writesOf(bucket, "k").size());
            assertEquals("k 3 " + bucket, readAll(store.getObject(bucket, "k")));
            assertEquals(current.sha256(), writesOf(bucket, "k").get(0).getString("sha256"));
        }
    }
}
