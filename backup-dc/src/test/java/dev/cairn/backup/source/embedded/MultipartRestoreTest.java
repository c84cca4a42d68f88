package dev.cairn.backup.source.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.backup.ServiceProcess;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Multipart objects through the path a user takes: uploaded in parts of different sizes into the
 * real service (a bucket without versioning, and multipart versions of a versioned key); a full
 * backup and an incremental on top through the service's checkpoint; a restore of the incremental
 * into a fresh embedded store and into a Cassandra keyspace; a service started on each answers
 * {@code GET ?partNumber=N} and {@code HEAD ?partNumber=N} of every part with exactly the part's
 * bytes, the same ETag and the same {@code x-amz-mp-parts-count} as before the backup.
 */
@Tag("integration")
class MultipartRestoreTest {
    private static final String KEYSPACE = "backup_multipart";
    private static final String[] BUCKETS = {"plain", "versioned"};

    @TempDir
    Path dir;

    private RestoreFixture fixture;

    private String backup(ServiceProcess service) throws IOException {
        return fixture.backup(service, "--checkpoint-rows", "2");
    }

    /** Backs up, changes, backs up again (incremental); the parts as served before the second backup. */
    private Map<String, String> backupWithIncremental() throws Exception {
        fixture = new RestoreFixture(dir);
        try (ServiceProcess service = fixture.start("data", RestoreFixture.MIN_PART); S3Client s3 = fixture.client(service)) {
            Random random = new Random(23);
            RestoreFixture.seedMultipart(s3, random);
            backup(service);
            RestoreFixture.multipart(s3, "plain", "later.bin", random, 64 * 1024, 100_000, 3);
            RestoreFixture.multipart(s3, "versioned", "v.bin", random, 70_000, 1);
            Map<String, String> before = RestoreFixture.parts(s3, true, BUCKETS);
            assertTrue(before.keySet().stream().anyMatch(k -> k.startsWith("plain/later.bin #") && k.endsWith(" part 3")),
                    before.toString());
            assertEquals(4, before.keySet().stream().filter(k -> k.startsWith("versioned/v.bin") && !k.contains("part")).count(),
                    before.toString());
            backup(service);
            return before;
        }
    }

    @Test
    void partsOfARestoredMultipartObjectAreServedByNumberFromAFreshEmbeddedStore() throws Exception {
        Map<String, String> before = backupWithIncremental();
        assertEquals(0, fixture.cli("restore", "--target", "dir:" + fixture.archive(),
                "--into", "embedded:" + dir.resolve("restored")));
        try (ServiceProcess restored = fixture.start("restored", RestoreFixture.MIN_PART);
             S3Client s3 = fixture.client(restored)) {
            assertEquals(before, RestoreFixture.parts(s3, true, BUCKETS));
        }

        ByteArrayOutputStream dumped = new ByteArrayOutputStream();
        Path manifests = dir.resolve("archive").resolve("manifests");
        PrintStream saved = System.out;
        System.setOut(new PrintStream(dumped, true, StandardCharsets.UTF_8));
        try (var files = Files.list(manifests)) {
            for (Path m : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".manifest"))::iterator) {
                assertEquals(0, fixture.cli("dump", m.toString()));
            }
        } finally {
            System.setOut(saved);
        }
        assertTrue(dumped.toString(StandardCharsets.UTF_8).contains("plain/mp.bin ")
                && dumped.toString(StandardCharsets.UTF_8).contains("partSizes=200000,70000,130000,1000"), dumped.toString());
    }

    @Test
    void partsOfARestoredMultipartObjectAreServedByNumberFromACassandraKeyspace() throws Exception {
        Map<String, String> before = backupWithIncremental();
        try (CqlSession session = CassandraSessions.connect(LocalCassandraCluster.settings(KEYSPACE))) {
            session.execute("DROP KEYSPACE IF EXISTS " + KEYSPACE);
        }
        assertEquals(0, fixture.cli("restore", "--target", "dir:" + fixture.archive(), "--into", "cassandra",
                "--into-contact-points", LocalCassandraCluster.CONTACT_POINTS, "--into-datacenter", "serving",
                "--into-keyspace", KEYSPACE, "--state-dir", dir.resolve("restore-state").toString()));
        try (ServiceProcess restored = fixture.start("on-cassandra", RestoreFixture.MIN_PART,
                "--cairn.store=cassandra", "--cairn.cassandra.contact-points=" + LocalCassandraCluster.CONTACT_POINTS,
                "--cairn.cassandra.keyspace=" + KEYSPACE, "--cairn.cassandra.request-timeout=10s");
             S3Client s3 = fixture.client(restored)) {
            assertEquals(before, RestoreFixture.parts(s3, true, BUCKETS));
        }
    }
}
