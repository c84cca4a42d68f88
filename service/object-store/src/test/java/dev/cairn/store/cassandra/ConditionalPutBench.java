package dev.cairn.store.cassandra;

import dev.cairn.store.BucketAcl;
import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.PutRequest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Unconditional PUTs next to conditional ones on the Cassandra store, in alternating rounds on
 * the local test cluster: {@code plain} (new content over an existing key), {@code if-match}
 * (new content over an existing key, conditional on the ETag its thread wrote last) and
 * {@code if-none-match} (a new key, conditional on its absence). Each thread has keys of its own,
 * so this is the cost of the condition, not contention. Prints each round
 * ({@code round kind ops/s p50-ms p99-ms}), then the median of each kind's rounds. Not a test;
 * run by hand: {@code java -cp <test classpath> dev.cairn.store.cassandra.ConditionalPutBench
 * [rounds] [seconds] [threads]}.
 */
public final class ConditionalPutBench {
    private static final int SIZE = 20 * 1024;
    private static final int KEYS_PER_THREAD = 20;

    private ConditionalPutBench() {
    }

    interface Put {
        void run(int thread, int i) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
        CassandraSettings settings = LocalCassandraCluster.settings("condbench");
        CassandraObjectStore.createSchema(LocalCassandraCluster.sharedSession(), settings);
        try (CassandraObjectStore store = new CassandraObjectStore(LocalCassandraCluster.sharedSession(), false, settings)) {
            String bucket = "condbench-" + Long.toHexString(System.nanoTime());
            store.createBucket(bucket, BucketAcl.PRIVATE);
            String[][] etags = new String[threads][KEYS_PER_THREAD];
            for (int t = 0; t < threads; t++) {
                for (int k = 0; k < KEYS_PER_THREAD; k++) {
                    etags[t][k] = put(store, bucket, key(t, k), false, null).etag();
                }
            }
            long[] fresh = new long[threads];
            Put plain = (t, i) -> {
                int k = i % KEYS_PER_THREAD;
                etags[t][k] = put(store, bucket, key(t, k), false, null).etag();
            };
            Put ifMatch = (t, i) -> {
                int k = i % KEYS_PER_THREAD;
                etags[t][k] = put(store, bucket, key(t, k), false, etags[t][k]).etag();
            };
            Put ifNoneMatch = (t, i) -> put(store, bucket, "new/" + t + "/" + fresh[t]++, true, null);
            List<String> kinds = List.of("plain", "if-match", "if-none-match");
            List<Put> puts = List.of(plain, ifMatch, ifNoneMatch);
            double[][] rates = new double[kinds.size()][rounds];
            for (int round = 0; round < rounds; round++) {
                for (int p = 0; p < puts.size(); p++) {
                    store.awaitSettled();
                    long[] sorted = phase(threads, seconds, puts.get(p));
                    rates[p][round] = sorted.length / (double) seconds;
                    System.out.printf(Locale.ROOT, "%d %s %.1f %.2f %.2f%n", round + 1, kinds.get(p), rates[p][round],
                            sorted.length == 0 ? 0 : sorted[sorted.length / 2] / 1e6,
                            sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) (sorted.length * 0.99))] / 1e6);
                }
            }
            for (int p = 0; p < kinds.size(); p++) {
                double[] r = rates[p].clone();
                Arrays.sort(r);
                System.out.printf(Locale.ROOT, "median %s %.1f ops/s (%.2f of plain)%n", kinds.get(p), r[r.length / 2],
                        r[r.length / 2] / median(rates[0]));
            }
        }
        System.exit(0);
    }

    private static double median(double[] values) {
        double[] r = values.clone();
        Arrays.sort(r);
        return r[r.length / 2];
    }

    private static String key(int thread, int k) {
        return "photos/" + thread + "/" + k;
    }

    private static ObjectInfo put(CassandraObjectStore store, String bucket, String key, boolean onlyIfAbsent,
                                  String ifMatch) throws Exception {
        byte[] data = new byte[SIZE];
        ThreadLocalRandom.current().nextBytes(data);
        ContentSource c = BytesContent.of(data);
        return ifMatch == null
                ? store.putObject(PutRequest.of(bucket, key, c, c.md5()).withOnlyIfAbsent(onlyIfAbsent))
                : store.putObject(PutRequest.of(bucket, key, c, c.md5()).withIfMatch(ifMatch));
    }

    private static long[] phase(int threads, int seconds, Put put) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Future<long[]>> futures = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            futures.add(pool.submit(() -> {
                long[] lat = new long[1 << 16];
                int n = 0;
                while (System.nanoTime() < end && n < lat.length) {
                    long start = System.nanoTime();
                    put.run(thread, n);
                    lat[n++] = System.nanoTime() - start;
                }
                return Arrays.copyOf(lat, n);
            }));
        }
        List<long[]> all = new ArrayList<>();
        for (Future<long[]> f : futures) {
            all.add(f.get());
        }
        pool.shutdown();
        return all.stream().flatMapToLong(Arrays::stream).sorted().toArray();
    }
}
