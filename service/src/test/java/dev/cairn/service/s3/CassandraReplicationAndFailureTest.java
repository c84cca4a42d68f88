package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.service.ServiceTestSupport;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.S3Exception;
import org.junit.jupiter.api.Tag;

/**
 * The service on the Cassandra store with reads at LOCAL_ONE: what it writes reaches the backup
 * datacenter, and with one of the two serving replicas stopped reads go on, writes fail with 503
 * (LOCAL_QUORUM of two replicas needs both), and after the node returns everything is readable.
 */
@Tag("integration")
@TestPropertySource(properties = {
        "cairn.store=cassandra",
        "cairn.cassandra.contact-points=${" + LocalCassandraCluster.CONTACT_POINTS_PROPERTY + "}",
        "cairn.cassandra.keyspace=" + LocalCassandraCluster.SERVICE_KEYSPACE,
        "cairn.cassandra.read-consistency=LOCAL_ONE",
        "cairn.cassandra.request-timeout=10s"})
class CassandraReplicationAndFailureTest extends ServiceTestSupport {
    private static final int STOPPED_NODE = 2;
    private static final int ATTEMPTS = 200;
    private static final long PAUSE_MILLIS = 300;

    static {
        LocalCassandraCluster.ensureRunning();
    }

    private static byte[] random(long seed, int size) {
        byte[] b = new byte[size];
        new Random(seed).nextBytes(b);
        return b;
    }

    private byte[] get(String bucket, String key) {
        return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray();
    }

    private static byte[] read(CassandraObjectStore store, String bucket, String key) throws IOException {
        try (ObjectRead r = store.getObject(bucket, key)) {
            if (r == null) {
                return null;
            }
            try (InputStream in = r.open(0, r.size())) {
                return in.readAllBytes();
            }
        }
    }

    @Test
    void anObjectWrittenThroughTheServiceIsReadFromTheBackupDatacenterAlone() throws Exception {
        String bucket = uniqueBucket("replicated");
        s3.createBucket(b -> b.bucket(bucket));
        Map<String, byte[]> written = new LinkedHashMap<>();
        written.put("photo.jpg", random(1, 20 * 1024));
        written.put("album/large.bin", random(2, 1300 * 1024));
        for (Map.Entry<String, byte[]> e : written.entrySet()) {
            s3.putObject(b -> b.bucket(bucket).key(e.getKey()), RequestBody.fromBytes(e.getValue()));
        }
        CassandraSettings backup = LocalCassandraCluster.settings(LocalCassandraCluster.SERVICE_KEYSPACE);
        backup.setLocalDatacenter("backup");
        backup.setReadConsistency(CassandraSettings.ReadConsistency.LOCAL_ONE);
        try (CqlSession session = CassandraSessions.connect(backup, "backup",
                List.of(LocalCassandraCluster.BACKUP_CONTACT_POINT));
             CassandraObjectStore store = new CassandraObjectStore(session, false, backup)) {
            for (Map.Entry<String, byte[]> e : written.entrySet()) {
                byte[] got = null;
                // Replication to another datacenter is asynchronous at LOCAL_QUORUM.
                for (int i = 0; i < ATTEMPTS && got == null; i++) {
                    got = read(store, bucket, e.getKey());
                    if (got == null) {
                        Thread.sleep(PAUSE_MILLIS);
                    }
                }
                assertNotNull(got, e.getKey() + " never reached the backup datacenter");
                assertArrayEquals(e.getValue(), got, e.getKey());
            }
        }
    }

    @Test
    void withAServingNodeDownReadsGoOnWritesFailWith503AndAllIsReadableAfterItReturns() throws Exception {
        String bucket = uniqueBucket("failover");
        s3.createBucket(b -> b.bucket(bucket));
        Map<String, byte[]> written = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            byte[] data = random(100 + i, 20 * 1024);
            String key = "before/" + i;
            s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromBytes(data));
            written.put(key, data);
        }
        LocalCassandraCluster.stopNode(STOPPED_NODE);
        try {
            for (Map.Entry<String, byte[]> e : written.entrySet()) {
                assertArrayEquals(e.getValue(), get(bucket, e.getKey()), e.getKey());
            }
            assertEquals(5, s3.listObjectsV2(b -> b.bucket(bucket).prefix("before/")).contents().size());
            S3Exception refused = assertThrows(S3Exception.class, () -> s3.putObject(
                    b -> b.bucket(bucket).key("during"), RequestBody.fromBytes(random(7, 1000))));
            assertEquals(503, refused.statusCode());
            assertEquals("SlowDown", refused.awsErrorDetails().errorCode());
        } finally {
            LocalCassandraCluster.startNode(STOPPED_NODE);
        }
        byte[] after = random(8, 20 * 1024);
        S3Exception last = null;
        for (int i = 0; i < ATTEMPTS; i++) {
            try {
                s3.putObject(b -> b.bucket(bucket).key("after"), RequestBody.fromBytes(after));
                last = null;
                break;
            } catch (S3Exception e) {
                assertEquals(503, e.statusCode());
                last = e;
                Thread.sleep(PAUSE_MILLIS);
            }
        }
        if (last != null) {
            throw last;
        }
        written.put("after", after);
        CassandraSettings quorum = LocalCassandraCluster.settings(LocalCassandraCluster.SERVICE_KEYSPACE);
        try (CassandraObjectStore store = new CassandraObjectStore(LocalCassandraCluster.sharedSession(), false, quorum)) {
            for (Map.Entry<String, byte[]> e : written.entrySet()) {
                assertArrayEquals(e.getValue(), get(bucket, e.getKey()), e.getKey());
                assertArrayEquals(e.getValue(), read(store, bucket, e.getKey()), e.getKey() + " at LOCAL_QUORUM");
            }
            assertEquals(null, read(store, bucket, "during"), "a refused write is not visible");
        }
    }
}
