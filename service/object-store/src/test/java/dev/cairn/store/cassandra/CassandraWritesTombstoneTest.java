package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.TestKeyspace.content;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.TraceEvent;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ContentSource;
import dev.cairn.store.PutRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A key overwritten many times: the read of its recorded writes (which every PUT of the key
 * runs) must scan a number of tombstones that does not grow with the number of overwrites.
 * Counted by Cassandra's own query tracing ("Read N live rows and M tombstone cells").
 */
@Tag("integration")
class CassandraWritesTombstoneTest {
    private static final String KEYSPACE = "tombstones";
    private static final int OVERWRITES = 2_000;
    private static final int WRITERS = 4;
    /** Far below the overwrites: what a few range tombstones per sstable and replica come to. */
    private static final int TOMBSTONE_BOUND = 100;
    private static final Pattern SCANNED = Pattern.compile("Read (\\d+) live rows? and (\\d+) tombstone cells?");
    private static TestKeyspace keyspace;

    @BeforeAll
    static void schema() {
        keyspace = TestKeyspace.of(KEYSPACE);
    }

    /** The most tombstones any replica scanned for one read of the key's recorded writes, and its live rows. */
    static int[] scannedByOneRead(String bucket, String key) {
        ResultSet rs = keyspace.session().execute(SimpleStatement.newInstance(
                        "SELECT wid, sha256 FROM " + KEYSPACE + ".writes WHERE bucket = ? AND kind = ? AND slot = ?",
                        bucket, CassandraKeys.KIND_OBJECT, key)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM).setTracing(true));
        int rows = rs.all().size();
        int tombstones = -1;
        for (TraceEvent e : rs.getExecutionInfo().getQueryTrace().getEvents()) {
            Matcher m = SCANNED.matcher(String.valueOf(e.getActivity()));
            if (m.find()) {
                tombstones = Math.max(tombstones, Integer.parseInt(m.group(2)));
            }
        }
        assertTrue(tombstones >= 0, "the trace names what the read scanned");
        return new int[] {rows, tombstones};
    }

    @Test
    void aKeyOverwrittenThousandsOfTimesKeepsItsWritesReadFreeOfTombstones() throws Exception {
        String bucket = "hot-" + Long.toHexString(System.nanoTime());
        String key = "hot/key";
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            // Two contents taking turns: the writes are what is measured, not content reclamation.
            List<ContentSource> contents = List.of(content("even " + bucket), content("odd " + bucket));
            ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
            long deadline = System.nanoTime() + 240_000_000_000L;
            List<Future<Integer>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                done.add(writers.submit(() -> {
                    int written = 0;
                    for (int i = 0; i < OVERWRITES / WRITERS && System.nanoTime() < deadline; i++) {
                        ContentSource c = contents.get(i % 2);
                        store.putObject(PutRequest.of(bucket, key, c, c.md5()));
                        written++;
                    }
                    return written;
                }));
            }
            int written = 0;
            for (Future<Integer> f : done) {
                written += f.get();
            }
            writers.shutdown();
            store.awaitSettled();
            ContentSource last = contents.get(0);
            store.putObject(PutRequest.of(bucket, key, last, last.md5()));
            store.awaitSettled();

            int[] scanned = scannedByOneRead(bucket, key);
            System.out.printf("writes tombstones: %d overwrites, one read of the key's writes: %d live rows, %d tombstones%n",
                    written + 1, scanned[0], scanned[1]);
            assertTrue(written > 10 * TOMBSTONE_BOUND, "enough overwrites to tell: " + written);
            assertEquals(1, scanned[0], "only the current write stays recorded");
            assertTrue(scanned[1] < TOMBSTONE_BOUND, "tombstones one read scans: " + scanned[1] + " after " + written
                    + " overwrites");

            CassandraObjectStore.AuditReport report = store.audit();
            assertEquals(List.of(), report.problems());
        }
    }
}
