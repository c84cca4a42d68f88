package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.PutRequest;
import dev.cairn.store.Versioning;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The statements one PUT and one GET of the Cassandra store issue (in an unversioned and in a
 * versioned bucket), their round trips and the time of each, next to a single-row write and read of the cluster alone, one operation at a
 * time on the local test cluster. Not a test; run by hand:
 * {@code java -cp <test classpath> dev.cairn.store.cassandra.PutTrace [operations]}.
 */
public final class PutTrace {
    private static final int SIZE = 20 * 1024;

    private PutTrace() {
    }

    interface Op {
        void run(int i) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        CassandraSettings settings = LocalCassandraCluster.settings("trace");
        StatementTrace trace = new StatementTrace();
        CqlSession session = CassandraSessions.connect(settings, settings.getLocalDatacenter(),
                settings.getContactPoints(), trace);
        CassandraObjectStore.createSchema(session, settings);
        try (CassandraObjectStore store = new CassandraObjectStore(session, true, settings)) {
            String bucket = "trace-" + Long.toHexString(System.nanoTime());
            store.createBucket(bucket, BucketAcl.PRIVATE);
            byte[] shared = random();
            for (int i = 0; i < n; i++) {
                put(store, bucket, "photos/k" + i, random());
            }
            measure(trace, "PUT new key, new content", n, i -> put(store, bucket, "photos/new" + i, random()));
            measure(trace, "PUT existing key, new content", n, i -> put(store, bucket, "photos/k" + i, random()));
            put(store, bucket, "photos/shared", shared);
            measure(trace, "PUT existing key, stored content", n, i -> put(store, bucket, "photos/k" + i, shared));
            measure(trace, "GET (no row cache)", n, i -> {
                try (ObjectRead r = store.getObject(bucket, "photos/k" + i); InputStream in = r.open(0, r.size())) {
                    in.readAllBytes();
                }
            });
            String versioned = bucket + "-v";
            store.createBucket(versioned, BucketAcl.PRIVATE);
            store.setBucketVersioning(versioned, Versioning.ENABLED);
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ids.add(put(store, versioned, "photos/k" + i, random()).versionId());
            }
            measure(trace, "PUT versioned (Enabled), existing key, new content", n,
                    i -> put(store, versioned, "photos/k" + i, random()));
            measure(trace, "GET versioned, current version", n, i -> {
                try (ObjectRead r = store.getObject(versioned, "photos/k" + i); InputStream in = r.open(0, r.size())) {
                    in.readAllBytes();
                }
            });
            measure(trace, "GET versioned, older version by id", n, i -> {
                try (ObjectRead r = store.getObjectVersion(versioned, "photos/k" + i, ids.get(i));
                     InputStream in = r.open(0, r.size())) {
                    in.readAllBytes();
                }
            });
            measure(trace, "DELETE versioned (a delete marker)", n, i -> store.deleteObjectVersion(versioned, "photos/k" + i, null));
            session.execute("CREATE TABLE IF NOT EXISTS " + settings.getKeyspace()
                    + ".probe (k text PRIMARY KEY, v blob)");
            PreparedStatement insert = session.prepare("INSERT INTO " + settings.getKeyspace() + ".probe (k, v) VALUES (?, ?)");
            PreparedStatement select = session.prepare("SELECT v FROM " + settings.getKeyspace() + ".probe WHERE k = ?");
            measure(trace, "cluster alone: one 20 KB row written (LOCAL_QUORUM)", n, i -> session.execute(
                    insert.bind("p" + i, ByteBuffer.wrap(random())).setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)));
            measure(trace, "cluster alone: one 20 KB row read (LOCAL_QUORUM)", n, i -> session.execute(
                    select.bind("p" + i).setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)));
        }
        System.exit(0);
    }

    private static byte[] random() {
        byte[] b = new byte[SIZE];
        ThreadLocalRandom.current().nextBytes(b);
        return b;
    }

    private static dev.cairn.store.ObjectInfo put(CassandraObjectStore store, String bucket, String key, byte[] data)
            throws Exception {
        ContentSource c = BytesContent.of(data);
        return store.putObject(PutRequest.of(bucket, key, c, c.md5()));
    }

    /** Runs the operation n times, one at a time, and prints what the last one issued. */
    private static void measure(StatementTrace trace, String name, int n, Op op) throws Exception {
        double[] wall = new double[n];
        int[] statements = new int[n];
        int[] trips = new int[n];
        int[] background = new int[n];
        Map<String, List<Double>> byStatement = new TreeMap<>();
        List<StatementTrace.Call> last = List.of();
        long lastStart = 0;
        for (int i = 0; i < n; i++) {
            trace.clear();
            long start = System.nanoTime();
            op.run(i);
            long end = System.nanoTime();
            Thread.sleep(150); // lets work after the answer finish before the next operation
            List<StatementTrace.Call> fg = new ArrayList<>();
            for (StatementTrace.Call c : trace.calls()) {
                if (c.startNanos() < end) {
                    fg.add(c);
                    byStatement.computeIfAbsent(c.cql(), k -> new ArrayList<>()).add(c.millis());
                } else {
                    background[i]++;
                }
            }
            wall[i] = (end - start) / 1e6;
            statements[i] = fg.size();
            trips[i] = StatementTrace.roundTrips(fg);
            last = fg;
            lastStart = start;
        }
        Arrays.sort(wall);
        System.out.printf("%n== %s: median %.2f ms, p90 %.2f ms; statements %s, round trips %s, after the answer %s%n",
                name, wall[n / 2], wall[n * 9 / 10], range(statements), range(trips), range(background));
        for (StatementTrace.Call c : last) {
            System.out.printf("   +%7.2f ms %7.2f ms  %s%n", (c.startNanos() - lastStart) / 1e6, c.millis(), c.cql());
        }
        System.out.println("   median latency per statement over all operations:");
        byStatement.forEach((cql, ms) -> {
            double[] a = ms.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            System.out.printf("   %7.2f ms  x%-4d %s%n", a[a.length / 2], a.length, cql);
        });
    }

    private static String range(int[] values) {
        int min = Arrays.stream(values).min().orElse(0);
        int max = Arrays.stream(values).max().orElse(0);
        return min == max ? Integer.toString(min) : min + "-" + max;
    }
}
