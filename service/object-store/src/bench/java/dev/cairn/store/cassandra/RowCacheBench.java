package dev.cairn.store.cassandra;

import dev.cairn.engine.TieredCache;
import dev.cairn.engine.TieredCacheOptions;
import dev.cairn.store.BenchPhase;
import dev.cairn.store.BucketAcl;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectRead;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.PutRequest;
import dev.cairn.store.RowCachingObjectStore;
import dev.cairn.store.Versioning;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Hot GETs through the row cache over the Cassandra store, of an unversioned and of a versioned
 * (Enabled) bucket, next to the same GETs of the store alone, on a scratch keyspace
 * {@value #KEYSPACE}. Both buckets get the same keys and sizes; every key is read once before the
 * timed phases, so a cache that keeps the rows answers them all. The phases run {@code rounds}
 * times, alternately. Prints one line per phase: {@code phase ops/s p50-ms p99-ms row-hit-ratio}.
 * Run through the service's jar:
 * {@code java -cp service/target/cairn-service.jar -Dloader.main=dev.cairn.store.cassandra.RowCacheBench
 * org.springframework.boot.loader.launch.PropertiesLauncher contact-points threads seconds [size] [keys] [rounds]}.
 */
public final class RowCacheBench {
    private static final String KEYSPACE = "cairn_bench";
    private static final int SAMPLES_PER_THREAD = 1 << 20;

    private RowCacheBench() {
    }


    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: RowCacheBench contact-points threads seconds [size] [keys] [rounds]");
            System.exit(2);
        }
        CassandraSettings settings = new CassandraSettings();
        settings.setContactPoints(List.of(args[0].split(",")));
        settings.setKeyspace(KEYSPACE);
        settings.setRequestTimeout(Duration.ofSeconds(10));
        int threads = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int size = args.length > 3 ? Integer.parseInt(args[3]) : 20 * 1024;
        int keys = args.length > 4 ? Integer.parseInt(args[4]) : 500;
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 2;
        Path cacheDir = Files.createTempDirectory("row-cache-bench");
        CassandraObjectStore store = CassandraObjectStore.open(settings);
        RowCachingObjectStore cached;
        try {
            cached = new RowCachingObjectStore(store,
                    TieredCache.open(TieredCacheOptions.builder(cacheDir).memoryBytes(256L << 20).build()), 1 << 20, true);
        } catch (java.io.IOException | RuntimeException e) {
            store.close();
            throw e;
        }
        try (cached) { // closes the store too
            String stem = "rcbench-" + Long.toHexString(System.nanoTime());
            String plain = stem + "-plain";
            String versioned = stem + "-versioned";
            store.createBucket(plain, BucketAcl.PRIVATE);
            store.createBucket(versioned, BucketAcl.PRIVATE);
            store.setBucketVersioning(versioned, Versioning.ENABLED);
            for (String bucket : List.of(plain, versioned)) {
                load(store, bucket, keys, size, threads);
                for (int k = 0; k < keys; k++) {
                    get(cached, bucket, k);
                }
            }
            store.awaitSettled();
            for (int round = 0; round < rounds; round++) {
                for (String bucket : List.of(plain, versioned)) {
                    String name = bucket.equals(plain) ? "unversioned" : "versioned";
                    RowCachingObjectStore.Stats before = cached.cacheStats();
                    long[] lat = phase(threads, seconds, r -> get(cached, bucket, r.nextInt(keys)));
                    RowCachingObjectStore.Stats after = cached.cacheStats();
                    long hits = after.rowHits() - before.rowHits();
                    long misses = after.rowMisses() - before.rowMisses();
                    report("cache-get-" + name, lat, seconds, hits / (double) Math.max(1, hits + misses));
                    report("store-get-" + name, phase(threads, seconds, r -> get(store, bucket, r.nextInt(keys))),
                            seconds, 0);
                }
            }
        }
        System.exit(0);
    }

    private static void load(ObjectStore store, String bucket, int keys, int size, int threads) throws Exception {
        ExecutorService loaders = Executors.newFixedThreadPool(threads);
        List<Future<?>> loads = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            int k = i;
            loads.add(loaders.submit(() -> {
                byte[] data = new byte[size];
                ThreadLocalRandom.current().nextBytes(data);
                BytesSource c = new BytesSource(data);
                store.putObject(PutRequest.of(bucket, key(k), c, c.md5()));
                return null;
            }));
        }
        for (Future<?> f : loads) {
            f.get();
        }
        loaders.shutdown();
    }

    private static void get(ObjectStore store, String bucket, int k) throws Exception {
        try (ObjectRead o = store.getObject(bucket, key(k)); InputStream in = o.open(0, o.size())) {
            in.readAllBytes();
        }
    }

    private static String key(int k) {
        return "photos/" + k;
    }


    private static long[] phase(int threads, int seconds, BenchPhase.Op op) throws Exception {
        return BenchPhase.run(threads, seconds, SAMPLES_PER_THREAD, op);
    }

    private static void report(String phase, long[] sorted, int seconds, double hitRatio) {
        double p50 = BenchPhase.percentileMillis(sorted, 0.5);
        double p99 = BenchPhase.percentileMillis(sorted, 0.99);
        System.out.printf(Locale.ROOT, "%s %.1f %.3f %.3f %.3f%n", phase, sorted.length / (double) seconds, p50, p99,
                hitRatio);
    }

    private record BytesSource(byte[] data) implements ContentSource {
        @Override
        public String sha256() {
            return digest("SHA-256");
        }

        @Override
        public long size() {
            return data.length;
        }

        @Override
        public String md5() {
            return digest("MD5");
        }

        @Override
        public InputStream open() {
            return new java.io.ByteArrayInputStream(data);
        }

        private String digest(String algorithm) {
            try {
                return Hex.encode(MessageDigest.getInstance(algorithm).digest(data));
            } catch (java.security.NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
