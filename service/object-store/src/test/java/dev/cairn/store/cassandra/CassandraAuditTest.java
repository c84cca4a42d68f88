package dev.cairn.store.cassandra;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.PutRequest;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The audit sees each kind of leftover a crash can leave and each kind of loss, so that a kill
 * test whose audit comes back clean means something; the sweep releases every leftover and
 * nothing that a row holds. Its own keyspace: the audit reads whole tables.
 */
@Tag("integration")
class CassandraAuditTest {
    private static final String KEYSPACE = "audittest";
    private static final long HOUR_MICROS = 3_600_000_000L;
    private static TestKeyspace keyspace;

    @BeforeAll
    static void schema() {
        keyspace = TestKeyspace.empty(KEYSPACE);
    }

    private static void cql(String statement, Object... values) {
        keyspace.session().execute(SimpleStatement.newInstance(statement.replace("ks.", KEYSPACE + "."), values));
    }

    /** A write id of an hour ago: old enough for any grace a test gives. */
    private static ByteBuffer oldWid() {
        ByteBuffer b = ByteBuffer.allocate(16);
        b.putLong(System.currentTimeMillis() * 1000 - HOUR_MICROS).putLong(new Random().nextLong()).flip();
        return b;
    }

    private static UUID oldTimeUuid() {
        return Uuids.startOf(System.currentTimeMillis() - 3_600_000);
    }

    private static byte[] bytes(int size, int seed) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void leftoversAreSeenAndSweptLossesAreNamed() throws Exception {
        String bucket = "audit-" + Long.toHexString(System.nanoTime());
        try (CassandraObjectStore store = keyspace.store()) {
            store.createBucket(bucket, BucketAcl.PRIVATE);
            BytesContent small = BytesContent.of(bytes(3000, 1));
            BytesContent big = BytesContent.of(bytes(CassandraSchema.CHUNK_BYTES + 1000, 2));
            BytesContent part = BytesContent.of(bytes(5000, 3));
            store.putObject(PutRequest.of(bucket, "a", small, small.md5()));
            store.putObject(PutRequest.of(bucket, "b", big, big.md5()));
            store.putObject(PutRequest.of(bucket, "c", small, small.md5()));
            String uploadId = store.createUpload(bucket, "m", ObjectAttributes.EMPTY).uploadId();
            store.putPart(bucket, "m", uploadId, 1, part);
            store.awaitSettled();

            CassandraObjectStore.AuditReport clean = store.audit();
            assertEquals(List.of(), clean.problems());
            assertEquals(List.of(), clean.leftovers());
            assertEquals(3, clean.objects());
            assertEquals(1, clean.parts());

            // What crashes leave: a write and its reference no row holds, a reference recorded
            // without its write, a dead reclaimer's doom mark, chunks of a generation whose row
            // never landed, content nothing references, a part of an upload that is gone.
            ByteBuffer ghost = oldWid();
            cql("INSERT INTO ks.writes (bucket, kind, slot, wid, sha256) VALUES (?, 0, 'ghost', ?, ?)", bucket, ghost, small.sha256());
            cql("INSERT INTO ks.refs (sha256, kind, bucket, slot, wid) VALUES (?, 0, ?, 'ghost', ?)", small.sha256(), bucket, ghost);
            cql("INSERT INTO ks.refs (sha256, kind, bucket, slot, wid) VALUES (?, 0, ?, 'half', ?)", big.sha256(), bucket, oldWid());
            UUID bigGeneration = keyspace.session().execute(SimpleStatement.newInstance(
                    "SELECT generation FROM " + KEYSPACE + ".contents WHERE sha256 = ?", big.sha256())).one().getUuid(0);
            cql("UPDATE ks.contents SET dooms = dooms + ? WHERE sha256 = ? AND generation = ?", Set.of(oldTimeUuid()),
                    big.sha256(), bigGeneration);
            String orphanSha = "ab".repeat(32);
            cql("INSERT INTO ks.chunks (sha256, generation, chunk, data) VALUES (?, ?, 0, ?)", orphanSha, oldTimeUuid(),
                    ByteBuffer.wrap(new byte[10]));
            String lonelySha = "cd".repeat(32);
            UUID lonelyGeneration = oldTimeUuid();
            cql("INSERT INTO ks.contents (sha256, generation, size, chunk_bytes, complete) VALUES (?, ?, 10, ?, true)",
                    lonelySha, lonelyGeneration, CassandraSchema.CHUNK_BYTES);
            cql("INSERT INTO ks.chunks (sha256, generation, chunk, data) VALUES (?, ?, 0, ?)", lonelySha, lonelyGeneration,
                    ByteBuffer.wrap(new byte[10]));
            String goneUpload = store.createUpload(bucket, "gone", ObjectAttributes.EMPTY).uploadId();
            store.putPart(bucket, "gone", goneUpload, 1, BytesContent.of(bytes(700, 4)));
            store.awaitSettled();
            cql("DELETE FROM ks.uploads WHERE bucket = ? AND key = 'gone' AND upload_id = ?", bucket, goneUpload);

            CassandraObjectStore.AuditReport left = store.audit();
            assertEquals(List.of(), left.problems(), "leftovers lose nothing");
            String all = String.join("\n", left.leftovers());
            for (String expected : List.of("slot=ghost", "slot=half", "referenced, yet marked doomed",
                    "chunks of " + orphanSha, "content " + lonelySha, "part " + goneUpload + "/1 of an upload that is gone")) {
                assertTrue(all.contains(expected), "the audit names " + expected + " in:\n" + all);
            }

            // A sweep with an hour's grace keeps what is younger (the gone upload's part) ...
            store.sweep(Duration.ofMinutes(30));
            assertTrue(String.join("\n", store.audit().leftovers()).contains("of an upload that is gone"));
            // ... and without grace it releases everything, and nothing a row holds.
            CassandraObjectStore.SweepReport swept = store.sweep(Duration.ZERO);
            System.out.println("swept: " + swept);
            CassandraObjectStore.AuditReport after = store.audit();
            assertEquals(List.of(), after.problems());
            assertEquals(List.of(), after.leftovers());
            for (Map.Entry<String, BytesContent> e : Map.of("a", small, "b", big, "c", small).entrySet()) {
                try (InputStream in = store.getObject(bucket, e.getKey()).openAll()) {
                    assertArrayEquals(e.getValue().bytes(), in.readAllBytes(), e.getKey());
                }
            }

            // Losses are problems: a row's reference gone, a chunk under a row gone.
            cql("DELETE FROM ks.refs WHERE sha256 = ? AND kind = 0 AND bucket = ? AND slot = 'c'", small.sha256(), bucket);
            cql("DELETE FROM ks.chunks WHERE sha256 = ? AND generation = ? AND chunk = 1", big.sha256(), bigGeneration);
            String problems = String.join("\n", store.audit().problems());
            assertTrue(problems.contains("object " + bucket + "/c: its reference"), problems);
            assertTrue(problems.contains("object " + bucket + "/b: chunk 1 of " + big.sha256()), problems);
        }
    }
}
