package dev.cairn.store.cassandra;

import static dev.cairn.store.cassandra.TestKeyspace.content;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.CompleteRequest;
import dev.cairn.store.ContentSource;
import dev.cairn.store.CompletedPart;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.PartInfo;
import dev.cairn.store.PutRequest;
import dev.cairn.store.UploadInfo;
import dev.cairn.store.StoreException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What the reference scheme relies on, checked in the tables themselves. */
@Tag("integration")
class CassandraObjectStoreTest {
    private static final String KEYSPACE = "storetest";
    private static TestKeyspace keyspace;

    @BeforeAll
    static void schema() {
        keyspace = TestKeyspace.of(KEYSPACE);
    }

    private static Row row(String table, String where, Object... values) {
        return keyspace.session().execute(SimpleStatement.newInstance(
                "SELECT * FROM " + KEYSPACE + "." + table + " WHERE " + where, values)).one();
    }

    @Test
    void rowsAreWrittenAtTheirWriteIdsTimestampAndSupersededWritesAreReleased() throws Exception {
        String bucket = "ts-" + Long.toHexString(System.nanoTime());
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            ContentSource first = content("first version");
            ContentSource second = content("second version");
            store.putObject(PutRequest.of(bucket, "dir/k", first, first.md5()));
            store.putObject(PutRequest.of(bucket, "dir/k", second, second.md5()));

            Row written = keyspace.session().execute(SimpleStatement.newInstance(
                    "SELECT row, writetime(row) AS ts FROM " + KEYSPACE + ".objects WHERE bucket = ? AND key = ?",
                    bucket, "dir/k")).one();
            WriteId wid = RowFormat.writeIdOf(written.getByteBuffer("row"));
            assertEquals(wid.timestampMicros(), written.getLong("ts"), "the row's write timestamp is its write id's");
            Row entry = keyspace.session().execute(SimpleStatement.newInstance("SELECT writetime(row) AS ts FROM "
                    + KEYSPACE + ".directory WHERE bucket = ? AND dir = ? AND shard = ? AND name = ?",
                    bucket, "dir/", DirectoryIndex.shardOf("k"), "k")).one();
            assertEquals(wid.timestampMicros(), entry.getLong("ts"), "the listing entry has the same timestamp");

            store.awaitSettled();
            assertNull(row("refs", "sha256 = ?", first.sha256()), "the overwritten content's reference is released");
            assertNull(row("contents", "sha256 = ?", first.sha256()), "and the content reclaimed");
            assertNotNull(row("refs", "sha256 = ?", second.sha256()));
            int recorded = keyspace.session().execute(SimpleStatement.newInstance("SELECT wid FROM " + KEYSPACE
                    + ".writes WHERE bucket = ? AND kind = 0 AND slot = ?", bucket, "dir/k")).all().size();
            assertEquals(1, recorded, "only the current write stays recorded");

            store.deleteObject(bucket, "dir/k");
            assertNull(row("refs", "sha256 = ?", second.sha256()));
            assertNull(row("contents", "sha256 = ?", second.sha256()));
            assertTrue(keyspace.session().execute(SimpleStatement.newInstance("SELECT wid FROM " + KEYSPACE
                    + ".writes WHERE bucket = ? AND kind = 0 AND slot = ?", bucket, "dir/k")).all().isEmpty());
        }
    }

    @Test
    void aNewObjectIsWrittenInThreeRoundTripsAndSettledAfterTheAnswer() throws Exception {
        String bucket = "rt-" + Long.toHexString(System.nanoTime());
        StatementTrace trace = new StatementTrace();
        try (CqlSession traced = keyspace.traced(trace);
             CassandraObjectStore store = keyspace.storeOn(traced)) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            store.putObject(PutRequest.of(bucket, "warm/up", content("warm"), "e"));
            int fewest = Integer.MAX_VALUE;
            // The fewest of up to twenty: a pause of this JVM between issuing two parallel statements
            // (the second sent after the first answered) counts as a trip, and a loaded machine pauses often.
            for (int i = 0; i < 20 && fewest > 3; i++) {
                store.awaitSettled();
                trace.clear();
                ContentSource c = content("new content " + i + " " + System.nanoTime());
                store.putObject(PutRequest.of(bucket, "photos/new-" + i, c, c.md5()));
                List<StatementTrace.Call> answered = trace.calls();
                fewest = Math.min(fewest, StatementTrace.roundTrips(answered));
                assertTrue(answered.stream().noneMatch(call -> call.cql().startsWith("DELETE")),
                        "nothing is released before the answer: " + answered);
            }
            assertTrue(fewest <= 3, "a new-content PUT answers after at most three round trips, took " + fewest);
        }
    }

    @Test
    void aLoneOverwriteSettlesInSevenStatementsAndFourRoundTripsReferencesFirst() throws Exception {
        String bucket = "settle-" + Long.toHexString(System.nanoTime());
        StatementTrace trace = new StatementTrace();
        try (CqlSession traced = keyspace.traced(trace);
             CassandraObjectStore store = keyspace.storeOn(traced)) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            int fewest = Integer.MAX_VALUE;
            boolean seenInOrder = false;
            // The fewest of up to twenty, as above: a loaded machine's pauses add trips, never remove them.
            // The tracker learns of a statement's end only after its caller did, so one settle's times can
            // show the write's delete a little before the references' end; a delete sent beside the
            // references would show so in every settle.
            for (int i = 0; i < 20 && (fewest > 4 || !seenInOrder); i++) {
                String key = "photos/over-" + i;
                ContentSource first = content("first " + i + " " + System.nanoTime());
                store.putObject(PutRequest.of(bucket, key, first, first.md5()));
                store.awaitSettled();
                trace.clear();
                ContentSource second = content("second " + i + " " + System.nanoTime());
                store.putObject(PutRequest.of(bucket, key, second, second.md5()));
                store.awaitSettled();
                // The write's delete and the content's reclamation run side by side: wait for both.
                List<StatementTrace.Call> calls = trace.callsOnceRecorded(
                        q -> q.contains("DELETE FROM chunks"), q -> q.startsWith("DELETE FROM writes"));
                long answered = calls.stream().filter(c -> c.cql().contains("INSERT INTO objects")).findFirst()
                        .orElseThrow().endNanos();
                List<StatementTrace.Call> settle = calls.stream().filter(c -> c.startNanos() >= answered).toList();
                assertEquals(7, settle.size(), "the settle's statements: " + settle);
                long referencesGone = settle.stream().filter(c -> c.cql().contains("DELETE FROM refs")).findFirst()
                        .orElseThrow().endNanos();
                StatementTrace.Call writeGone = settle.stream().filter(c -> c.cql().startsWith("DELETE FROM writes"))
                        .findFirst().orElseThrow();
                seenInOrder |= writeGone.startNanos() >= referencesGone;
                fewest = Math.min(fewest, StatementTrace.roundTrips(settle));
            }
            assertTrue(seenInOrder, "references go before the write in one settle of twenty at least");
            assertTrue(fewest <= 4, "a lone settle takes at most four round trips, took " + fewest);
        }
    }

    @Test
    void aWriteRefusedForItsBucketOrConditionLeavesNoReference() throws Exception {
        String bucket = "refused-" + Long.toHexString(System.nanoTime());
        try (CassandraObjectStore store = keyspace.store()) {
            ContentSource c = content("refused " + bucket);
            StoreException noBucket = assertThrows(StoreException.class, () ->
                    store.putObject(PutRequest.of(bucket, "k", c, c.md5())));
            assertEquals(StoreException.Reason.NO_SUCH_BUCKET, noBucket.reason());
            store.createBucket(bucket, BucketAcl.PRIVATE);
            ContentSource first = content("first " + bucket);
            store.putObject(PutRequest.of(bucket, "k", first, first.md5()));
            StoreException exists = assertThrows(StoreException.class, () ->
                    store.putObject(PutRequest.of(bucket, "k", c, c.md5()).withOnlyIfAbsent(true)));
            assertEquals(StoreException.Reason.PRECONDITION_FAILED, exists.reason());
            store.awaitSettled();
            assertNull(row("refs", "sha256 = ?", c.sha256()), "a refused write keeps no reference");
            assertNull(row("contents", "sha256 = ?", c.sha256()), "nor content");
            assertEquals(1, keyspace.session().execute(SimpleStatement.newInstance("SELECT wid FROM " + KEYSPACE
                    + ".writes WHERE bucket = ? AND kind = 0 AND slot = ?", bucket, "k")).all().size());
        }
    }

    @Test
    void partSizesAreThoseOfTheCurrentMultipartVersion() throws Exception {
        String bucket = "layout-" + Long.toHexString(System.nanoTime());
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            UploadInfo u = store.createUpload(bucket, "k", ObjectAttributes.EMPTY);
            PartInfo a = store.putPart(bucket, "k", u.uploadId(), 1, content("aaaa"));
            PartInfo b = store.putPart(bucket, "k", u.uploadId(), 2, content("bb"));
            ObjectInfo done = store.completeUpload(CompleteRequest.of(bucket, "k", u.uploadId(),
                    List.of(new CompletedPart(1, a.etag()), new CompletedPart(2, b.etag())), 0));
            assertArrayEquals(new long[] {4, 2}, store.partSizes(bucket, "k", done));
            assertArrayEquals(new long[] {4, 2}, store.partSizes(bucket, "k", store.headObject(bucket, "k")));
            ContentSource x = content("x");
            ObjectInfo plain = store.putObject(PutRequest.of(bucket, "k", x, x.md5()));
            assertNull(store.partSizes(bucket, "k", plain));
            assertNull(store.partSizes(bucket, "k", done), "an old version read earlier");
            store.deleteObject(bucket, "k");
            assertNull(row("layouts", "bucket = ? AND key = ?", bucket, "k"), "a delete drops the layout");
        }
    }

    @Test
    void successorIsTheLeastStringAfterAPrefix() {
        assertEquals("ac", DirectoryIndex.successor("ab"));
        assertEquals("a/", DirectoryIndex.successor("a."));
        assertEquals("\uE000", DirectoryIndex.successor("\uD7FF"));
        assertEquals("b", DirectoryIndex.successor("a\uDBFF\uDFFF"));
        assertNull(DirectoryIndex.successor("\uDBFF\uDFFF"));
    }
}
