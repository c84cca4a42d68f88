package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.TestKeyspace.content;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.PutRequest;
import dev.cairn.store.StoreException;
import dev.cairn.store.StoreUnavailableException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Conditional writes on the Cassandra store, checked in the tables: the lease that makes them
 * atomic among themselves, and the reference scheme when they race unconditional writes and
 * deletes of the same key.
 */
@Tag("integration")
class CassandraConditionalWriteTest {
    private static final String KEYSPACE = "storetest";
    private static TestKeyspace keyspace;

    @BeforeAll
    static void schema() {
        keyspace = TestKeyspace.of(KEYSPACE);
    }

    private static ObjectInfo put(CassandraObjectStore store, String bucket, String key, String body, boolean onlyIfAbsent,
                                  String ifMatch) throws Exception {
        ContentSource c = content(body);
        return ifMatch == null
                ? store.putObject(PutRequest.of(bucket, key, c, c.md5()).withOnlyIfAbsent(onlyIfAbsent))
                : store.putObject(PutRequest.of(bucket, key, c, c.md5()).withIfMatch(ifMatch));
    }

    private static List<Row> rows(String cql, Object... values) {
        return keyspace.session().execute(SimpleStatement.newInstance(cql.replace("%ks", KEYSPACE), values)).all();
    }

    private static String body(CassandraObjectStore store, String bucket, String key) throws Exception {
        try (ObjectRead r = store.getObject(bucket, key)) {
            if (r == null) {
                return null;
            }
            byte[] b;
            try (InputStream in = r.open(0, r.size())) {
                b = in.readAllBytes();
            }
            assertEquals(r.info().sha256(), Hex.encode(MessageDigest.getInstance("SHA-256").digest(b)),
                    "the bytes are the row's content");
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    @Test
    void aConditionalRowIsWrittenAtItsWriteIdsTimestampAndGivesItsLeaseBack() throws Exception {
        String bucket = "cond-ts-" + Long.toHexString(System.nanoTime());
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            ObjectInfo first = put(store, bucket, "k", "first " + bucket, true, null);
            ObjectInfo second = put(store, bucket, "k", "second " + bucket, false, first.etag());
            Row written = rows("SELECT row, writetime(row) AS ts FROM %ks.objects WHERE bucket = ? AND key = ?",
                    bucket, "k").get(0);
            WriteId wid = RowFormat.writeIdOf(written.getByteBuffer("row"));
            assertEquals(wid.timestampMicros(), written.getLong("ts"), "the row's write timestamp is its write id's");
            assertEquals(second.lastModified(), wid.timestampMicros() / 1000);
            assertTrue(rows("SELECT holder FROM %ks.key_locks WHERE bucket = ? AND key = ?", bucket, "k").isEmpty(),
                    "the lease is given back");

            StoreException stale = assertThrows(StoreException.class,
                    () -> put(store, bucket, "k", "third " + bucket, false, first.etag()));
            assertEquals(StoreException.Reason.PRECONDITION_FAILED, stale.reason());
            StoreException absent = assertThrows(StoreException.class,
                    () -> put(store, bucket, "absent", "third " + bucket, false, "*"));
            assertEquals(StoreException.Reason.NO_SUCH_KEY, absent.reason());
            store.awaitSettled();
            List<Row> recorded = rows("SELECT wid FROM %ks.writes WHERE bucket = ? AND kind = 0 AND slot = ?", bucket, "k");
            assertEquals(1, recorded.size(), "only the current write stays recorded");
            assertEquals(wid, WriteId.of(recorded.get(0).getByteBuffer("wid")));
            List<Row> refs = rows("SELECT kind, wid FROM %ks.refs WHERE sha256 = ?", second.sha256());
            assertEquals(1, refs.size(), "the hold taken before the lease is gone");
            assertEquals(CassandraKeys.KIND_OBJECT, refs.get(0).getInt("kind"));
            assertNull(rowOf("refs", content("first " + bucket).sha256()), "the replaced content is released");
            assertNull(rowOf("contents", content("third " + bucket).sha256()), "a refused write's content is reclaimed");
            assertEquals("second " + bucket, body(store, bucket, "k"));
        }
    }

    private static Row rowOf(String table, String sha) {
        List<Row> r = rows("SELECT * FROM %ks." + table + " WHERE sha256 = ?", sha);
        return r.isEmpty() ? null : r.get(0);
    }

    @Test
    void ofConditionalWritersRacingFromOneVersionExactlyOneWins() throws Exception {
        String bucket = "cond-race-" + Long.toHexString(System.nanoTime());
        int writers = 6;
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            String base = put(store, bucket, "k", "base", false, null).etag();
            for (boolean create : new boolean[] {true, false}) {
                String key = create ? "created" : "k";
                List<Callable<String>> racers = new ArrayList<>();
                for (int i = 0; i < writers; i++) {
                    String body = key + " by writer " + i;
                    racers.add(() -> {
                        put(store, bucket, key, body, create, create ? null : base);
                        return body;
                    });
                }
                List<String> won = new ArrayList<>();
                // A compare-and-swap that timed out on a loaded machine may or may not have won.
                List<String> unknown = new ArrayList<>();
                ExecutorService pool = Executors.newFixedThreadPool(writers);
                try {
                    List<Future<String>> outcomes = pool.invokeAll(racers);
                    for (int i = 0; i < writers; i++) {
                        try {
                            won.add(outcomes.get(i).get());
                        } catch (java.util.concurrent.ExecutionException e) {
                            if (e.getCause() instanceof StoreUnavailableException) {
                                unknown.add(key + " by writer " + i);
                            } else {
                                assertRefused((StoreException) e.getCause());
                            }
                        }
                    }
                } finally {
                    pool.shutdownNow();
                }
                String stored = body(store, bucket, key);
                if (unknown.isEmpty()) {
                    assertEquals(1, won.size(), key + ": " + won);
                    assertEquals(won.get(0), stored);
                } else {
                    assertTrue(won.size() <= 1, key + ": " + won + ", of unknown outcome " + unknown);
                    String before = create ? null : "base";
                    assertTrue(won.contains(stored)
                                    || (won.isEmpty() && (unknown.contains(stored) || java.util.Objects.equals(before, stored))),
                            key + ": stored " + stored + ", won " + won + ", of unknown outcome " + unknown);
                }
            }
        }
    }

    /**
     * Compare-and-swap increments race plain overwrites and deletes of other keys and of the same
     * key: no increment is lost to another increment, and whatever the key ends as, its content is
     * there; once every write has settled and the key is written once more, only that write is
     * recorded.
     */
    @Test
    void conditionalAndUnconditionalWritesAndDeletesOfOneKeyKeepReferencesExact() throws Exception {
        String bucket = "cond-mix-" + Long.toHexString(System.nanoTime());
        int threads = 6;
        int rounds = 12;
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            put(store, bucket, "counter", "0", false, null);
            AtomicInteger increments = new AtomicInteger();
            AtomicInteger unknownIncrements = new AtomicInteger();
            AtomicInteger unavailable = new AtomicInteger();
            List<Callable<Void>> work = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                work.add(() -> {
                    for (int i = 0; i < rounds; i++) {
                        try {
                            if (thread % 2 == 0) {
                                ObjectInfo now = store.headObject(bucket, "counter");
                                int value = Integer.parseInt(body(store, bucket, "counter"));
                                try {
                                    // Values only grow, so an ETag names one value: when the body read is
                                    // newer than the ETag read, the condition refuses the write.
                                    put(store, bucket, "counter", Integer.toString(value + 1), false, now.etag());
                                    increments.incrementAndGet();
                                } catch (StoreUnavailableException e) {
                                    // A timed-out lease or compare-and-swap: the increment may or may not stand.
                                    unknownIncrements.incrementAndGet();
                                } catch (StoreException e) {
                                    assertRefused(e);
                                }
                            } else {
                                String mixed = "mixed";
                                String tag = thread + "/" + i;
                                switch (ThreadLocalRandom.current().nextInt(4)) {
                                    case 0 -> put(store, bucket, mixed, "plain " + tag, false, null);
                                    case 1 -> store.deleteObject(bucket, mixed);
                                    case 2 -> swallowRefusal(() -> put(store, bucket, mixed, "if absent " + tag, true, null));
                                    default -> swallowRefusal(() -> put(store, bucket, mixed, "if any " + tag, false, "*"));
                                }
                            }
                        } catch (StoreUnavailableException e) {
                            // A cluster slowed down by a loaded machine times out; references must stay exact all the same.
                            unavailable.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                for (Future<Void> f : pool.invokeAll(work)) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            store.awaitSettled();
            int counter = Integer.parseInt(body(store, bucket, "counter"));
            assertTrue(counter >= increments.get() && counter <= increments.get() + unknownIncrements.get(),
                    "every successful compare-and-swap counted once: " + counter + " after " + increments
                            + " increments and " + unknownIncrements + " of unknown outcome");
            assertTrue(unknownIncrements.get() + unavailable.get() < threads * rounds / 2,
                    "most writes reached the cluster: " + unknownIncrements + " + " + unavailable + " timed out");
            body(store, bucket, "mixed");
            for (String key : List.of("counter", "mixed")) {
                String lastBody = "last " + key + " of " + bucket;
                ObjectInfo last = put(store, bucket, key, lastBody, false, null);
                store.awaitSettled();
                List<Row> recorded = rows("SELECT wid, sha256 FROM %ks.writes WHERE bucket = ? AND kind = 0 AND slot = ?",
                        bucket, key);
                assertEquals(1, recorded.size(), key + ": " + recorded.size() + " writes recorded");
                assertEquals(last.sha256(), recorded.get(0).getString("sha256"));
                assertNotNull(rowOf("contents", last.sha256()));
                assertEquals(1, rows("SELECT kind FROM %ks.refs WHERE sha256 = ?", last.sha256()).size(),
                        "no hold is left beside the record");
                assertArrayEquals(lastBody.getBytes(StandardCharsets.UTF_8),
                        body(store, bucket, key).getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private interface Write {
        void run() throws Exception;
    }

    private static void swallowRefusal(Write write) throws Exception {
        try {
            write.run();
        } catch (StoreException e) {
            if (e.reason() != StoreException.Reason.NO_SUCH_KEY) {
                assertRefused(e);
            }
        }
    }

    /** A conditional write that lost: to the condition, or after waiting its turn too long. */
    private static void assertRefused(StoreException e) {
        assertTrue(e.reason() == StoreException.Reason.PRECONDITION_FAILED
                || e.reason() == StoreException.Reason.CONDITIONAL_CONFLICT, e.reason() + ": " + e.getMessage());
    }
}
