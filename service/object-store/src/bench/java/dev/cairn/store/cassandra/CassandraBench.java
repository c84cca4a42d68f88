package dev.cairn.store.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.cairn.store.BenchPhase;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.PutRequest;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;


/**
 * The cluster alone next to the Cassandra store alone, in one run, on a scratch keyspace
 * {@value #KEYSPACE} (kept: dropping tables under write load has stopped a node's commit log): single-row writes and reads of {@code size} bytes at LOCAL_QUORUM (what the
 * cluster itself does), then the store's PUT (new content over existing keys: uniform keys, then
 * Zipfian keys as the service's load test chooses them) and GET (no row cache: a cache miss of the
 * service) with the same threads. Prints one line per phase: {@code phase ops/s p50-ms p99-ms};
 * on stderr, after each PUT phase, the wait for its settling, the settling's counts and the
 * statements' client-side times by kind. Run through the service's jar:
 * {@code java -cp service/target/cairn-service.jar -Dloader.main=dev.cairn.store.cassandra.CassandraBench
 * org.springframework.boot.loader.launch.PropertiesLauncher contact-points threads seconds [size] [keys]}.
 */
public final class CassandraBench {
    private static final String KEYSPACE = "cairn_bench";
    private static final int SAMPLES_PER_THREAD = 1 << 16;

    private CassandraBench() {
    }


    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: CassandraBench contact-points threads seconds [size] [keys]");
            System.exit(2);
        }
        CassandraSettings settings = new CassandraSettings();
        settings.setContactPoints(List.of(args[0].split(",")));
        settings.setKeyspace(KEYSPACE);
        settings.setRequestTimeout(Duration.ofSeconds(10));
        int threads = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int size = args.length > 3 ? Integer.parseInt(args[3]) : 20 * 1024;
        int keys = args.length > 4 ? Integer.parseInt(args[4]) : 2000;
        StatementTimes times = new StatementTimes();
        CqlSession session = CassandraSessions.connect(settings, settings.getLocalDatacenter(),
                settings.getContactPoints(), times);
        CassandraObjectStore.createSchema(session, settings);
        try (CassandraObjectStore store = new CassandraObjectStore(session, true, settings)) {
            session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + KEYSPACE
                    + ".probe (k int PRIMARY KEY, v blob)").setTimeout(settings.getSchemaTimeout()));
            PreparedStatement insert = session.prepare("INSERT INTO " + KEYSPACE + ".probe (k, v) VALUES (?, ?)");
            PreparedStatement select = session.prepare("SELECT v FROM " + KEYSPACE + ".probe WHERE k = ?");
            byte[] payload = new byte[size];
            ThreadLocalRandom.current().nextBytes(payload);
            report("cluster-write", phase(threads, seconds, r -> session.execute(insert.bind(r.nextInt(keys),
                    ByteBuffer.wrap(payload)).setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM))), seconds);
            report("cluster-read", phase(threads, seconds, r -> session.execute(select.bind(r.nextInt(keys))
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM))), seconds);

            String bucket = "bench-" + Long.toHexString(System.nanoTime());
            store.createBucket(bucket, BucketAcl.PRIVATE);
            ExecutorService loaders = Executors.newFixedThreadPool(threads);
            List<Future<?>> loads = new ArrayList<>();
            for (int i = 0; i < keys; i++) {
                int k = i;
                loads.add(loaders.submit(() -> put(store, bucket, k, size)));
            }
            for (Future<?> f : loads) {
                f.get();
            }
            loaders.shutdown();
            store.awaitSettled();
            store.takeSettleStats();
            times.take(1);
            putPhase("store-put-uniform", store, times, threads, seconds, r -> put(store, bucket, r.nextInt(keys), size));
            putPhase("store-put", store, times, threads, seconds, r -> put(store, bucket, zipfian(r, keys), size));
            report("store-get", phase(threads, seconds, r -> {
                try (ObjectRead o = store.getObject(bucket, key(r.nextInt(keys))); InputStream in = o.open(0, o.size())) {
                    in.readAllBytes();
                }
            }), seconds);
        }
        System.exit(0);
    }

    private static String key(int k) {
        return "photos/" + k;
    }

    private static Void put(CassandraObjectStore store, String bucket, int k, int size) throws Exception {
        byte[] data = new byte[size];
        ThreadLocalRandom.current().nextBytes(data);
        ContentSource c = content(data);
        store.putObject(PutRequest.of(bucket, key(k), c, c.md5()));
        return null;
    }


    /**
     * A PUT phase, then the wait for its settling: prints the phase's line, and on stderr the
     * settling's counts, the rate counting that wait ({@code sustained}: what a longer run holds),
     * and the client-side time of the statements of the phase and its settling, by kind, per PUT.
     */
    private static void putPhase(String name, CassandraObjectStore store, StatementTimes times, int threads,
                                 int seconds, BenchPhase.Op op)
            throws Exception {
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long cpuStart = os.getProcessCpuTime();
        long[] sorted = phase(threads, seconds, op);
        long drainStart = System.nanoTime();
        store.awaitSettled();
        double drain = (System.nanoTime() - drainStart) / 1e9;
        double cpuMillisPerPut = (os.getProcessCpuTime() - cpuStart) / 1e6 / Math.max(1, sorted.length);
        report(name, sorted, seconds);
        System.err.printf(Locale.ROOT, "%s: %d PUTs, settled %.1f s after the phase (sustained %.1f/s), CPU %.2f ms per PUT"
                + " (this process, settling included); %s%n", name, sorted.length, drain, sorted.length / (seconds + drain),
                cpuMillisPerPut, store.takeSettleStats());
        System.err.print(name + " statements:\n" + times.take(sorted.length));
    }

    /**
     * YCSB's scrambled Zipfian, as the load generator's PUTs choose keys: a rank over ten billion
     * items (skew 0.99), hashed with 64-bit FNV-1a, modulo the key count.
     */
    static int zipfian(ThreadLocalRandom random, int keys) {
        double u = random.nextDouble();
        double uz = u * ZETA_N;
        long rank;
        if (uz < 1.0) {
            rank = 0;
        } else if (uz < 1.0 + Math.pow(0.5, THETA)) {
            rank = 1;
        } else {
            rank = Math.min(ITEMS - 1, (long) (ITEMS * Math.pow(ETA * u - ETA + 1, 1.0 / (1.0 - THETA))));
        }
        long hash = 0xCBF29CE484222325L;
        for (int i = 0; i < 8; i++) {
            hash ^= rank & 0xff;
            hash *= 1099511628211L;
            rank >>= 8;
        }
        return (int) Math.floorMod(Math.abs(hash), (long) keys);
    }

    private static final long ITEMS = 10_000_000_000L;
    private static final double THETA = 0.99;
    private static final double ZETA_N = 26.46902820178302;
    private static final double ETA = (1 - Math.pow(2.0 / ITEMS, 1 - THETA)) / (1 - (1 + Math.pow(0.5, THETA)) / ZETA_N);

    private static long[] phase(int threads, int seconds, BenchPhase.Op op) throws Exception {
        return BenchPhase.run(threads, seconds, SAMPLES_PER_THREAD, op);
    }

    private static void report(String phase, long[] sorted, int seconds) {
        double p50 = BenchPhase.percentileMillis(sorted, 0.5);
        double p99 = BenchPhase.percentileMillis(sorted, 0.99);
        System.out.printf(Locale.ROOT, "%s %.1f %.2f %.2f%n", phase, sorted.length / (double) seconds, p50, p99);
    }

    private static ContentSource content(byte[] data) throws Exception {
        String sha = Hex.encode(MessageDigest.getInstance("SHA-256").digest(data));
        String md5 = Hex.encode(MessageDigest.getInstance("MD5").digest(data));
        return new ContentSource() {
            @Override
            public String sha256() {
                return sha;
            }

            @Override
            public long size() {
                return data.length;
            }

            @Override
            public String md5() {
                return md5;
            }

            @Override
            public InputStream open() {
                return new ByteArrayInputStream(data);
            }
        };
    }
}
