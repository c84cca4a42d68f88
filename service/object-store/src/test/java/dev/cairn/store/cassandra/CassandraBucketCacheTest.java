package dev.cairn.store.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The node's copy of a bucket row ({@code bucket-cache-ttl}): refreshed ahead of expiry by one caller. */
@Tag("integration")
class CassandraBucketCacheTest {
    private static final String KEYSPACE = "bucketcachetest";
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final int CROWD = 16;
    private static TestKeyspace keyspace;

    @BeforeAll
    static void schema() {
        keyspace = TestKeyspace.of(KEYSPACE);
        keyspace.settings().setBucketCacheTtl(TTL);
    }

    /** A read of one bucket's row, whichever of its columns it selects. */
    private static boolean isBucketRead(String cql) {
        return cql.startsWith("SELECT created, ") && cql.endsWith(" FROM buckets");
    }

    private static long bucketReads(StatementTrace trace) {
        return trace.calls().stream().filter(c -> isBucketRead(c.cql())).count();
    }

    @Test
    void aCrowdPastTheFirstReadsExpiryFindsTheCopyRefreshedAndOneOfThemRefreshesIt() throws Exception {
        String bucket = "crowd-" + Long.toHexString(System.nanoTime());
        StatementTrace trace = new StatementTrace();
        ExecutorService pool = Executors.newFixedThreadPool(CROWD);
        try (CqlSession traced = keyspace.traced(trace);
             CassandraObjectStore store = keyspace.storeOn(traced)) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            long firstRead = System.nanoTime();
            assertNotNull(store.bucket(bucket));
            Thread.sleep(TTL.toMillis() * 6 / 10);
            trace.clear();
            assertNotNull(store.bucket(bucket), "past half its life the copy is still served");
            trace.callsOnceRecorded(CassandraBucketCacheTest::isBucketRead);
            assertEquals(1, bucketReads(trace), () -> "and one read refreshes it; recorded: " + trace.calls());
            Thread.sleep(100); // the refreshed copy lands just after the tracker hears of its read

            Thread.sleep(Math.max(0, Duration.ofNanos(firstRead + TTL.toNanos()).toMillis()
                    - Duration.ofNanos(System.nanoTime()).toMillis() + 200));
            trace.clear();
            CountDownLatch go = new CountDownLatch(1);
            List<Future<BucketInfo>> crowd = new ArrayList<>();
            for (int i = 0; i < CROWD; i++) {
                crowd.add(pool.submit(() -> {
                    go.await();
                    return store.bucket(bucket);
                }));
            }
            go.countDown();
            for (Future<BucketInfo> f : crowd) {
                assertNotNull(f.get());
            }
            Thread.sleep(300);
            assertTrue(bucketReads(trace) <= 1, "past the first read's expiry, " + CROWD
                    + " callers read the bucket row at most once (the refresh ahead), read " + bucketReads(trace));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBucketDeletedByAnotherNodeIsNoticedWithinTheTtl() throws Exception {
        String bucket = "gone-" + Long.toHexString(System.nanoTime());
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            assertNotNull(store.bucket(bucket));
            keyspace.session().execute(SimpleStatement.newInstance(
                    "DELETE FROM " + KEYSPACE + ".buckets WHERE name = ?", bucket));
            long deleted = System.nanoTime();
            // Asked often, so the refresh ahead is what notices: the copy must not outlive its read by more than the TTL.
            while (store.bucket(bucket) != null) {
                assertTrue(System.nanoTime() - deleted < TTL.toNanos() + Duration.ofSeconds(10).toNanos(),
                        "the deleted bucket is still served well past the TTL");
                Thread.sleep(20);
            }
            assertNull(store.bucket(bucket), "once noticed, the bucket stays gone");
        }
    }
}
