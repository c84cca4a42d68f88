package dev.cairn.backup.source.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.backup.report.SplitRead;
import dev.cairn.backup.source.BackupSource;
import dev.cairn.backup.cli.BackupSources;
import dev.cairn.backup.source.SourceOptions;
import dev.cairn.backup.source.SourceTestContent;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BucketInfo;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.PutRequest;
import dev.cairn.store.cassandra.CassandraObjectStore;
import dev.cairn.store.cassandra.CassandraSessions;
import dev.cairn.store.cassandra.CassandraSettings;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The Cassandra source on the real test cluster: objects written through the store on
 * datacenter {@code serving} are all read back from datacenter {@code backup}, positions resume
 * exactly, datacenter {@code serving} receives no request during the scan (by Cassandra's own
 * per-node counts), and a stopped backup node is an error, never a failover.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CassandraSourceTest {
    private static final String KEYSPACE = "backupsource";
    private static final int OBJECTS = 400;
    private static final int BACKUP_NODE = 3;
    private static final Map<String, String> expected = new HashMap<>();
    private static CqlSession servingSession;
    private static CqlSession backupSession;

    @BeforeAll
    static void writeObjectsOnServing() throws Exception {
        CassandraSettings settings = LocalCassandraCluster.settings(KEYSPACE);
        settings.setWriteConsistency(CassandraSettings.WriteConsistency.EACH_QUORUM);
        servingSession = CassandraSessions.connect(settings);
        CassandraObjectStore.createSchema(servingSession, settings);
        Random random = new Random(11);
        try (CassandraObjectStore store = new CassandraObjectStore(servingSession, false, settings)) {
            for (String bucket : List.of("photos", "thumbs")) {
                if (store.bucket(bucket) == null) {
                    store.createBucket(bucket, bucket.equals("thumbs") ? BucketAcl.PUBLIC_READ : BucketAcl.PRIVATE);
                }
            }
            for (int i = 0; i < OBJECTS; i++) {
                String bucket = i % 3 == 0 ? "thumbs" : "photos";
                String key = "ads/" + (i % 17) + "/img-" + i + (i % 50 == 0 ? "-ünïcode" : "") + ".jpg";
                int size = i % 100 == 7 ? 1_300_000 : 200 + random.nextInt(20_000);
                byte[] b = new byte[size];
                random.nextBytes(b);
                ObjectAttributes attrs = new ObjectAttributes("image/jpeg", null, null, null, null, null,
                        Map.of("ad", Integer.toString(i)));
                dev.cairn.store.ContentSource content = SourceTestContent.of(b);
                store.putObject(PutRequest.of(bucket, key, content, content.md5()).withAttributes(attrs));
                expected.put(bucket + "/" + key, SourceTestContent.sha256(b));
            }
        }
        backupSession = PinnedSessions.connect(options());
    }

    @AfterAll
    static void close() {
        if (backupSession != null) {
            backupSession.close();
        }
        if (servingSession != null) {
            servingSession.close();
        }
    }

    static SourceOptions options() {
        SourceOptions o = new SourceOptions();
        o.kind = SourceOptions.Kind.cassandra;
        o.contactPoints = List.of(LocalCassandraCluster.BACKUP_CONTACT_POINT);
        o.datacenter = "backup";
        o.keyspace = KEYSPACE;
        o.consistency = "LOCAL_ONE";
        o.pageSize = 50;
        o.splits = 16;
        o.splitsInFlight = 4;
        o.requestTimeoutSeconds = 5;
        return o;
    }

    @Test
    @Order(1)
    void aFullScanFromBackupFindsEveryObjectAndServingReceivesNoRequest() throws Exception {
        Map<String, Map<String, Long>> servingBefore = ServerRequestCounts.of(servingSession, "serving", KEYSPACE);
        Map<String, Map<String, Long>> backupBefore = ServerRequestCounts.of(backupSession, "backup", KEYSPACE);
        assertEquals(2, servingBefore.size(), "both serving nodes are counted: " + servingBefore);
        assertEquals(1, backupBefore.size(), "the backup node is counted: " + backupBefore);

        Map<String, String> seen = new ConcurrentHashMap<>();
        Set<String> contentRead = ConcurrentHashMap.newKeySet();
        try (BackupSource source = BackupSources.open(options())) {
            assertTrue(source.describe().contains("dc=backup"), source.describe());
            List<BucketInfo> buckets = source.buckets();
            assertEquals(List.of("photos", "thumbs"), buckets.stream().map(BucketInfo::name).toList());
            assertEquals(BucketAcl.PUBLIC_READ, buckets.get(1).acl());
            List<BackupSource.Split> splits = source.splits();
            assertTrue(splits.size() >= 16, "splits: " + splits.size());
            assertEquals(splits.size(), new HashSet<>(splits.stream().map(BackupSource.Split::id).toList()).size());
            assertEquals(splits, source.splits(), "split ids are stable");
            ByteArrayOutputStream logged = new ByteArrayOutputStream();
            source.logSplitReadsTo(new PrintStream(logged, true, StandardCharsets.UTF_8));

            ExecutorService pool = Executors.newFixedThreadPool(options().splitsInFlight);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (BackupSource.Split split : splits) {
                    running.add(pool.submit(() -> {
                        source.scan(split, null, (bucket, row, partSizes, position) -> {
                            assertNotNull(position);
                            String previous = seen.put(bucket + "/" + row.key(), row.sha256());
                            assertEquals(null, previous, "each row once: " + bucket + "/" + row.key());
                            assertEquals("image/jpeg", row.attributes().contentType());
                            if (contentRead.add(row.sha256())) {
                                try (InputStream in = source.openContent(row.sha256())) {
                                    assertNotNull(in, "content of " + row.key());
                                    assertEquals(row.sha256(), SourceTestContent.sha256Of(in));
                                }
                            }
                        });
                        return null;
                    }));
                }
                for (Future<?> f : running) {
                    f.get();
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(null, source.openContent("0".repeat(64)));
            assertEveryPageReadFrom(source.splitReads(), splits, "backup", List.of(LocalCassandraCluster.address(BACKUP_NODE)));
            List<String> lines = List.of(logged.toString(StandardCharsets.UTF_8).split("\n"));
            assertEquals(splits.size(), lines.size(), "one line per split: " + lines);
            String backupNode = LocalCassandraCluster.address(BACKUP_NODE);
            for (BackupSource.Split split : splits) {
                String prefix = split.description() + ": read from datacenter backup, node " + backupNode + " (";
                assertEquals(1, lines.stream().filter(l -> l.startsWith(prefix) && l.endsWith(")") && !l.contains(";")).count(),
                        "the line of " + split + ": " + lines);
            }
        }
        assertEquals(expected, seen);

        Map<String, Map<String, Long>> servingDelta =
                ServerRequestCounts.minus(ServerRequestCounts.of(servingSession, "serving", KEYSPACE), servingBefore);
        Map<String, Map<String, Long>> backupDelta =
                ServerRequestCounts.minus(ServerRequestCounts.of(backupSession, "backup", KEYSPACE), backupBefore);
        System.out.println("requests per node during the scan (reads and range scans of keyspace " + KEYSPACE
                + ", Cassandra's own counts): serving " + servingDelta + ", backup " + backupDelta);
        assertEquals(0, ServerRequestCounts.total(servingDelta), "datacenter serving received requests: " + servingDelta);
        assertTrue(backupDelta.values().iterator().next().get("coordinator_scan_latency") >= 16,
                "the backup node coordinated the range scans: " + backupDelta);
        assertTrue(backupDelta.values().iterator().next().get("coordinator_read_latency") >= expected.size() / 2,
                "the backup node served the content reads: " + backupDelta);
    }

    @Test
    @Order(2)
    void aScanResumedAfterAnyPositionContinuesWithTheNextRow() throws Exception {
        try (BackupSource source = BackupSources.open(options())) {
            Map<String, String> all = new HashMap<>();
            for (BackupSource.Split split : source.splits()) {
                List<String> rows = new ArrayList<>();
                List<String> positions = new ArrayList<>();
                source.scan(split, null, (bucket, row, partSizes, position) -> {
                    rows.add(bucket + "/" + row.key());
                    positions.add(position);
                });
                for (int cut = 0; cut < rows.size(); cut += Math.max(1, rows.size() / 3)) {
                    List<String> rest = new ArrayList<>();
                    source.scan(split, positions.get(cut), (bucket, row, partSizes, position) -> rest.add(bucket + "/" + row.key()));
                    assertEquals(rows.subList(cut + 1, rows.size()), rest, "resumed after row " + cut + " of " + split);
                }
                // A scan stopped by an error is resumed from the last position it delivered.
                if (rows.size() > 3) {
                    List<String> firstPart = new ArrayList<>();
                    String[] last = new String[1];
                    assertThrows(IOException.class, () -> source.scan(split, null, (bucket, row, partSizes, position) -> {
                        if (firstPart.size() == 2) {
                            throw new IOException("the job was stopped");
                        }
                        firstPart.add(bucket + "/" + row.key());
                        last[0] = position;
                    }));
                    source.scan(split, last[0], (bucket, row, partSizes, position) -> firstPart.add(bucket + "/" + row.key()));
                    assertEquals(rows, firstPart);
                }
                for (String r : rows) {
                    all.put(r, "");
                }
            }
            assertEquals(expected.keySet(), all.keySet());
        }
    }

    /** Each split's pages, every one, answered by a node of {@code datacenter} among {@code nodes}. */
    private static void assertEveryPageReadFrom(List<SplitRead> reads, List<BackupSource.Split> splits, String datacenter,
                                                List<String> nodes) {
        assertEquals(splits.stream().map(BackupSource.Split::id).sorted().toList(),
                reads.stream().map(SplitRead::split).toList(), "a record of every split");
        for (SplitRead r : reads) {
            assertTrue(!r.readFrom().isEmpty(), "pages of " + r);
            for (SplitRead.NodeRead n : r.readFrom()) {
                assertEquals(datacenter, n.datacenter(), r.toString());
                assertTrue(nodes.contains(n.node()), n.node() + " is one of " + nodes);
                assertTrue(n.pages() >= 1, r.toString());
            }
        }
    }

    @Test
    @Order(3)
    void theCountsSeeAScanPointedAtServing() throws Exception {
        Map<String, Map<String, Long>> before = ServerRequestCounts.of(servingSession, "serving", KEYSPACE);
        SourceOptions o = options();
        o.datacenter = "serving";
        o.contactPoints = List.of(LocalCassandraCluster.address(1));
        int[] rows = {0};
        List<SplitRead> reads;
        List<BackupSource.Split> splits;
        try (BackupSource source = BackupSources.open(o)) {
            splits = source.splits();
            for (BackupSource.Split split : splits) {
                source.scan(split, null, (b, r, sizes, p) -> rows[0]++);
            }
            reads = source.splitReads();
        }
        assertEquals(expected.size(), rows[0]);
        assertEveryPageReadFrom(reads, splits, "serving", List.of(LocalCassandraCluster.address(1), LocalCassandraCluster.address(2)));
        Map<String, Map<String, Long>> delta =
                ServerRequestCounts.minus(ServerRequestCounts.of(servingSession, "serving", KEYSPACE), before);
        assertTrue(ServerRequestCounts.total(delta) > 0, "a scan of serving shows in its counts: " + delta);
    }

    @Test
    @Order(3)
    void wrongInputGivesAClearError() {
        SourceOptions noPoints = options();
        noPoints.contactPoints = List.of();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BackupSources.open(noPoints))
                .getMessage().contains("--contact-points"));
        SourceOptions strong = options();
        strong.consistency = "QUORUM";
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BackupSources.open(strong))
                .getMessage().contains("one datacenter"));
        SourceOptions missing = options();
        missing.keyspace = "nosuchkeyspace";
        assertTrue(assertThrows(IOException.class, () -> BackupSources.open(missing))
                .getMessage().contains("nosuchkeyspace"));
    }

    @Test
    @Order(4)
    void aBackupNodeStoppedMidScanIsAClearErrorNeverAFailoverToServing() throws Exception {
        Map<String, Map<String, Long>> servingBefore = ServerRequestCounts.of(servingSession, "serving", KEYSPACE);
        SourceOptions o = options();
        o.pageSize = 5;
        try (BackupSource source = BackupSources.open(o)) {
            BackupSource.Split biggest = null;
            int most = -1;
            for (BackupSource.Split s : source.splits()) {
                int[] n = {0};
                source.scan(s, null, (b, r, sizes, p) -> n[0]++);
                if (n[0] > most) {
                    most = n[0];
                    biggest = s;
                }
            }
            assertTrue(most > 10, "a split with several pages: " + most);
            BackupSource.Split split = biggest;
            int[] delivered = {0};
            try {
                IOException e = assertThrows(IOException.class, () -> source.scan(split, null, (b, r, sizes, p) -> {
                    if (delivered[0]++ == 0) {
                        LocalCassandraCluster.stopNode(BACKUP_NODE);
                    }
                }));
                System.out.println("scan with the backup node stopped: " + e.getMessage());
                assertTrue(e.getMessage().contains("datacenter backup"), e.getMessage());
                assertTrue(delivered[0] < most, "the scan stopped early: " + delivered[0] + " of " + most);
                IOException content = assertThrows(IOException.class,
                        () -> source.openContent(expected.values().iterator().next()));
                assertTrue(content.getMessage().contains("datacenter backup"), content.getMessage());
            } finally {
                LocalCassandraCluster.startNode(BACKUP_NODE);
            }
        }
        Map<String, Map<String, Long>> servingDelta =
                ServerRequestCounts.minus(ServerRequestCounts.of(servingSession, "serving", KEYSPACE), servingBefore);
        assertEquals(0, ServerRequestCounts.total(servingDelta), "no failover to serving: " + servingDelta);
    }
}
