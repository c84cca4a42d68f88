package dev.cairn.store.cassandra;

import dev.cairn.engine.Engine;
import dev.cairn.engine.EngineOptions;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.PutRequest;
import dev.cairn.store.embedded.EmbeddedObjectStore;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * 20 KB PUT and GET throughput and latency of the embedded store next to the Cassandra store,
 * in one run, at the {@code ObjectStore} interface (no HTTP). Not a test; run by hand with the
 * local test cluster:
 * {@code java -cp <test classpath> dev.cairn.store.cassandra.StoreThroughput [threads] [seconds]}.
 */
public final class StoreThroughput {
    private static final int SIZE = 20 * 1024;

    private StoreThroughput() {
    }

    public static void main(String[] args) throws Exception {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        Path dir = Files.createTempDirectory("cairn-throughput");
        try (Engine engine = Engine.open(EngineOptions.builder(dir.resolve("engine")).build());
             ObjectStore embedded = new EmbeddedObjectStore(engine)) {
            run("embedded", embedded, threads, seconds);
        }
        CassandraSettings settings = LocalCassandraCluster.settings("throughput");
        try (CassandraObjectStore cassandra = CassandraObjectStore.open(settings)) {
            run("cassandra", cassandra, threads, seconds);
        }
        System.exit(0);
    }

    private static void run(String name, ObjectStore store, int threads, int seconds) throws Exception {
        String bucket = "bench-" + Long.toHexString(System.nanoTime());
        store.createBucket(bucket, BucketAcl.PRIVATE);
        List<String> keys = java.util.Collections.synchronizedList(new ArrayList<>());
        long[][] put = phase(threads, seconds, t -> {
            byte[] data = new byte[SIZE];
            ThreadLocalRandom.current().nextBytes(data);
            String key = "photos/" + t + "/" + System.nanoTime();
            ContentSource c = content(data);
            store.putObject(PutRequest.of(bucket, key, c, c.md5()));
            keys.add(key);
        });
        report(name, "PUT", put, seconds);
        long[][] get = phase(threads, seconds, t -> {
            String key = keys.get(ThreadLocalRandom.current().nextInt(keys.size()));
            try (ObjectRead r = store.getObject(bucket, key); InputStream in = r.open(0, r.size())) {
                if (in.readAllBytes().length != SIZE) {
                    throw new IllegalStateException("short read of " + key);
                }
            }
        });
        report(name, "GET", get, seconds);
    }

    interface Op {
        void run(int thread) throws Exception;
    }

    private static long[][] phase(int threads, int seconds, Op op) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Future<long[]>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int self = t;
            futures.add(pool.submit(() -> {
                long[] lat = new long[1 << 16];
                int n = 0;
                while (System.nanoTime() < end && n < lat.length) {
                    long start = System.nanoTime();
                    op.run(self);
                    lat[n++] = System.nanoTime() - start;
                }
                return Arrays.copyOf(lat, n);
            }));
        }
        long[][] out = new long[threads][];
        for (int t = 0; t < threads; t++) {
            out[t] = futures.get(t).get();
        }
        pool.shutdown();
        return out;
    }

    private static void report(String store, String op, long[][] perThread, int seconds) {
        long[] all = Arrays.stream(perThread).flatMapToLong(Arrays::stream).sorted().toArray();
        double p50 = all[all.length / 2] / 1e6;
        double p99 = all[(int) (all.length * 0.99)] / 1e6;
        System.out.printf("%-10s %s 20KB: %8.0f ops/s  p50 %7.2f ms  p99 %7.2f ms  (%d ops)%n",
                store, op, all.length / (double) seconds, p50, p99, all.length);
    }

    private static ContentSource content(byte[] data) {
        return BytesContent.of(data);
    }
}
