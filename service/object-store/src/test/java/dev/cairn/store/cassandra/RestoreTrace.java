package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectVersion;
import dev.cairn.store.VersionId;
import dev.cairn.store.VersionPage;
import dev.cairn.store.VersionQuery;
import dev.cairn.store.VersionRecord;
import dev.cairn.store.Versioning;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The cost of restoring versions into the Cassandra store, per version: the old way, one
 * {@code restoreVersion} per version (the key's lease, a quorum read and a batch each), against
 * {@code restoreVersions} per key (one lease, one read and one batch for up to 16 versions), run
 * alternately on the same records into fresh buckets. Prints versions/s (restore calls only),
 * statements and round trips per version, and checks that both give the same listing and a
 * clean audit. Not a test; run by hand on the test cluster:
 * {@code java -cp <test classpath> dev.cairn.store.cassandra.RestoreTrace [keys] [versions per key] [rounds]}.
 */
public final class RestoreTrace {
    private RestoreTrace() {
    }

    private record Key(List<VersionRecord> records, List<ContentSource> contents) {
    }

    public static void main(String[] args) throws Exception {
        int keys = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int perKey = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        CassandraSettings settings = LocalCassandraCluster.settings("rtrace");
        StatementTrace trace = new StatementTrace();
        CqlSession session = CassandraSessions.connect(settings, settings.getLocalDatacenter(),
                settings.getContactPoints(), trace);
        CassandraObjectStore.createSchema(session, settings);
        List<Key> all = records(keys, perKey);
        int versions = keys * perKey;
        System.out.printf("restore of %d keys x %d versions (4 KiB each, one delete marker per key), %d rounds%n",
                keys, perKey, rounds);
        System.out.printf("%-22s %12s %14s %16s %8s%n", "mode", "versions/s", "statements/v", "round trips/v", "audit");
        try (CassandraObjectStore store = new CassandraObjectStore(session, true, settings)) {
            String stamp = Long.toHexString(System.nanoTime());
            List<String> reference = null;
            double[][] rates = new double[2][rounds];
            for (int round = 0; round < rounds; round++) {
                for (int m = 0; m < 2; m++) {
                    int mode = (round % 2 == 0) ? m : 1 - m;
                    String bucket = "rt-" + stamp + "-" + round + "-" + mode;
                    store.createBucket(bucket, BucketAcl.PRIVATE);
                    store.setBucketVersioning(bucket, Versioning.ENABLED);
                    store.awaitSettled();
                    long busy = 0;
                    int statements = 0;
                    int trips = 0;
                    for (Key k : all) {
                        trace.clear();
                        long start = System.nanoTime();
                        if (mode == 0) {
                            for (int i = 0; i < k.records().size(); i++) {
                                store.restoreVersion(bucket, k.records().get(i), k.contents().get(i));
                            }
                        } else {
                            store.restoreVersions(bucket, k.records(), k.contents());
                        }
                        long end = System.nanoTime();
                        busy += end - start;
                        store.awaitSettled();
                        List<StatementTrace.Call> calls = trace.calls();
                        statements += calls.size();
                        trips += StatementTrace.roundTrips(calls.stream().filter(c -> c.startNanos() < end).toList());
                    }
                    List<String> listing = listing(store, bucket);
                    boolean clean = store.audit().problems().isEmpty();
                    if (reference == null) {
                        reference = listing;
                    } else if (!reference.equals(listing)) {
                        throw new AssertionError("the two ways gave different listings:\n" + reference + "\n" + listing);
                    }
                    rates[mode][round] = versions / (busy / 1e9);
                    System.out.printf("%-22s %12.1f %14.2f %16.2f %8s%n",
                            mode == 0 ? "per version (old)" : "per key (new)", rates[mode][round],
                            statements / (double) versions, trips / (double) versions, clean ? "clean" : "PROBLEMS");
                }
            }
            double oldMedian = median(rates[0]);
            double newMedian = median(rates[1]);
            System.out.printf("median versions/s: old %.1f, new %.1f, ratio %.2f%n", oldMedian, newMedian, newMedian / oldMedian);
            System.out.printf("{\"keys\":%d,\"versionsPerKey\":%d,\"rounds\":%d,\"oldVersionsPerSecond\":%.1f,"
                    + "\"newVersionsPerSecond\":%.1f}%n", keys, perKey, rounds, oldMedian, newMedian);
        }
        System.exit(0);
    }

    private static double median(double[] values) {
        double[] a = values.clone();
        Arrays.sort(a);
        return a[a.length / 2];
    }

    /** Each key's versions newest first, the second one a delete marker, 10 ms apart. */
    private static List<Key> records(int keys, int perKey) {
        List<Key> out = new ArrayList<>();
        long micros = System.currentTimeMillis() * 1000 - 3_600_000_000L;
        for (int k = 0; k < keys; k++) {
            String key = "photos/k" + k;
            List<VersionRecord> records = new ArrayList<>();
            List<ContentSource> contents = new ArrayList<>();
            for (int v = 0; v < perKey; v++) {
                long at = micros - (long) (k * perKey + v) * 10_000;
                byte[] sort = ByteBuffer.allocate(VersionId.SORT_BYTES).putLong(Long.MAX_VALUE - at)
                        .putInt(ThreadLocalRandom.current().nextInt()).array();
                String id = VersionId.encode(sort);
                if (v == 1) {
                    records.add(new VersionRecord(ObjectVersion.marker(key, id, at / 1000, false), sort));
                    contents.add(null);
                    continue;
                }
                byte[] bytes = new byte[4096];
                ThreadLocalRandom.current().nextBytes(bytes);
                BytesContent c = BytesContent.of(bytes);
                ObjectInfo info = new ObjectInfo(key, c.sha256(), bytes.length, c.md5(), ObjectAttributes.EMPTY,
                        at / 1000, 0, Map.of(), id);
                records.add(new VersionRecord(ObjectVersion.of(info, v == 0), sort));
                contents.add(c);
            }
            out.add(new Key(records, contents));
        }
        return out;
    }

    private static List<String> listing(CassandraObjectStore store, String bucket) throws Exception {
        List<String> out = new ArrayList<>();
        VersionPage page = store.listObjectVersions(bucket, new VersionQuery("", null, null, null, 1000));
        for (ObjectVersion v : page.versions()) {
            out.add(v.key() + " " + v.versionId() + " " + v.latest() + " " + v.deleteMarker() + " " + v.lastModified()
                    + (v.deleteMarker() ? "" : " " + v.info().sha256()));
        }
        return out;
    }
}
