package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.service.CairnApplication;
import dev.cairn.service.ServiceTestSupport;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.RedisServerProcess;
import dev.cairn.store.RowCachingObjectStore;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import org.junit.jupiter.api.Tag;

/**
 * Two service nodes on the Cassandra test cluster, their row caches invalidated over a real
 * redis-server: a write through one node is read through the other, which had the old version
 * cached; with Redis gone, writes are refused (503) and neither node serves cached rows; with
 * Redis back, both listen again. And on a versioned bucket: after each kind of change through one
 * node — a new version, a delete marker, a delete by version id that makes an older version
 * current again, an object ACL, a versioning change — the other node, which had the key cached,
 * answers the new current version.
 */
@Tag("integration")
class RowCacheInvalidationOnCassandraTest {
    private static final long WAIT_SECONDS = 60;

    @TempDir
    Path dir;

    static {
        LocalCassandraCluster.ensureRunning();
    }

    private ConfigurableApplicationContext node(String name, String redis, String channel) {
        Map<String, Object> p = new HashMap<>();
        p.put("server.port", "0");
        p.put("server.address", "127.0.0.1");
        p.put("cairn.data-dir", dir.resolve(name).toString());
        p.put("cairn.auth.access-key", ServiceTestSupport.ACCESS_KEY);
        p.put("cairn.auth.secret-key", ServiceTestSupport.SECRET_KEY);
        p.put("cairn.store", "cassandra");
        p.put("cairn.cassandra.contact-points", LocalCassandraCluster.CONTACT_POINTS);
        p.put("cairn.cassandra.keyspace", LocalCassandraCluster.SERVICE_KEYSPACE);
        p.put("cairn.cassandra.request-timeout", "10s");
        p.put("cairn.cassandra.cache.memory-size", "16MB");
        p.put("cairn.cassandra.cache.invalidation", "redis");
        p.put("cairn.cassandra.cache.redis-address", redis);
        p.put("cairn.cassandra.cache.redis-channel", channel);
        // Above the PING silence a loaded machine can cause: a subscription dropped then would refuse
        // writes and bypass the cache before Redis is stopped.
        p.put("cairn.cassandra.cache.redis-timeout", "3s");
        p.put("logging.level.dev.cairn.service.access", "WARN");
        // Arguments, not default properties: those rank below the packaged application settings.
        return new SpringApplicationBuilder(CairnApplication.class)
                .run(p.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new));
    }

    private static S3Client client(ConfigurableApplicationContext ctx) {
        int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
        return S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + port)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        ServiceTestSupport.ACCESS_KEY, ServiceTestSupport.SECRET_KEY)))
                .forcePathStyle(true).build();
    }

    private static RowCachingObjectStore rows(ConfigurableApplicationContext ctx) {
        return (RowCachingObjectStore) ctx.getBean(ObjectStore.class);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not within " + WAIT_SECONDS + " s: " + what);
            Thread.sleep(20);
        }
    }

    private static String get(S3Client s3, String bucket, String key) {
        return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
    }

    /** The current version as node {@code s3} answers a GET: "content @ version id", or "marker @ id". */
    private static String current(S3Client s3, String bucket, String key) {
        try {
            var r = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key));
            return r.asUtf8String() + " @ " + (r.response().versionId() == null ? "(none)" : r.response().versionId());
        } catch (S3Exception e) {
            assertEquals(404, e.statusCode(), e.toString());
            var headers = e.awsErrorDetails().sdkHttpResponse();
            assertEquals("true", headers.firstMatchingHeader("x-amz-delete-marker").orElse(null), "a 404 without a marker");
            return "marker @ " + headers.firstMatchingHeader("x-amz-version-id").orElse(null);
        }
    }

    /**
     * Reads through node {@code n} until it answers {@code expected} from its row cache. The writer
     * settles after its answer, and an invalidation of that settling may evict the row once more,
     * so one read after the first right answer may still miss.
     */
    private static void awaitCurrent(ConfigurableApplicationContext n, S3Client s3, String bucket, String key,
                                     String expected) throws InterruptedException {
        await("the other node answers " + expected + " from its row cache", () -> {
            long hits = rows(n).cacheStats().rowHits();
            return current(s3, bucket, key).equals(expected) && rows(n).cacheStats().rowHits() > hits;
        });
        assertEquals(expected, current(s3, bucket, key));
    }

    private static int anonymousGet(ConfigurableApplicationContext ctx, String bucket, String key) {
        int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
        try {
            return java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/" + bucket + "/" + key)).build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyChangeOfAVersionedKeyThroughOneNodeIsReadThroughAnotherThatHadItCached() throws Exception {
        Path redisBinary = RedisServerProcess.binary();
        assumeTrue(redisBinary != null, "redis-server is not installed (bin/install-test-deps installs it as root);"
                + " skipping the Redis invalidation test");
        String bucket = "rowcache-v-" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
        String channel = "cairn:test:" + bucket;
        try (RedisServerProcess redis = RedisServerProcess.start(redisBinary);
             ConfigurableApplicationContext a = node("a", redis.address(), channel);
             ConfigurableApplicationContext b = node("b", redis.address(), channel);
             S3Client s3a = client(a);
             S3Client s3b = client(b)) {
            await("both nodes subscribed", () -> rows(a).cacheStats().trusted() && rows(b).cacheStats().trusted());
            s3a.createBucket(r -> r.bucket(bucket));
            s3a.putObject(r -> r.bucket(bucket).key("k"), RequestBody.fromString("before versioning"));
            awaitCurrent(b, s3b, bucket, "k", "before versioning @ (none)");

            // The cached row is named "null" once B has heard of the change: B forgets its copy of the bucket.
            s3a.putBucketVersioning(r -> r.bucket(bucket).versioningConfiguration(v -> v.status("Enabled")));
            awaitCurrent(b, s3b, bucket, "k", "before versioning @ null");
            assertEquals("null", s3b.headObject(r -> r.bucket(bucket).key("k")).versionId());

            String v2 = s3a.putObject(r -> r.bucket(bucket).key("k"), RequestBody.fromString("two")).versionId();
            awaitCurrent(b, s3b, bucket, "k", "two @ " + v2);

            String marker = s3a.deleteObject(r -> r.bucket(bucket).key("k")).versionId();
            awaitCurrent(b, s3b, bucket, "k", "marker @ " + marker);

            s3a.deleteObject(r -> r.bucket(bucket).key("k").versionId(marker));
            awaitCurrent(b, s3b, bucket, "k", "two @ " + v2);

            assertEquals(403, anonymousGet(b, bucket, "k"));
            s3a.putObjectAcl(r -> r.bucket(bucket).key("k").acl("public-read"));
            await("the other node serves the object publicly", () -> anonymousGet(b, bucket, "k") == 200);
            awaitCurrent(b, s3b, bucket, "k", "two @ " + v2);

            s3a.deleteObject(r -> r.bucket(bucket).key("k").versionId(v2));
            awaitCurrent(b, s3b, bucket, "k", "before versioning @ null");

            s3a.putBucketVersioning(r -> r.bucket(bucket).versioningConfiguration(v -> v.status("Suspended")));
            s3a.putObject(r -> r.bucket(bucket).key("k"), RequestBody.fromString("suspended"));
            awaitCurrent(b, s3b, bucket, "k", "suspended @ null");
        }
    }

    @Test
    void aWriteThroughOneNodeIsReadThroughAnotherThatHadTheOldVersionCached() throws Exception {
        Path redisBinary = RedisServerProcess.binary();
        assumeTrue(redisBinary != null, "redis-server is not installed (bin/install-test-deps installs it as root);"
                + " skipping the Redis invalidation test");
        String bucket = "rowcache-" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
        String channel = "cairn:test:" + bucket;
        try (RedisServerProcess redis = RedisServerProcess.start(redisBinary);
             ConfigurableApplicationContext a = node("a", redis.address(), channel);
             ConfigurableApplicationContext b = node("b", redis.address(), channel);
             S3Client s3a = client(a);
             S3Client s3b = client(b)) {
            await("both nodes subscribed", () -> rows(a).cacheStats().trusted() && rows(b).cacheStats().trusted());
            s3a.createBucket(r -> r.bucket(bucket));
            s3a.putObject(r -> r.bucket(bucket).key("k"), RequestBody.fromString("version one"));
            assertEquals("version one", get(s3b, bucket, "k"));
            long hits = rows(b).cacheStats().rowHits();
            assertEquals("version one", get(s3b, bucket, "k"));
            assertEquals(hits + 1, rows(b).cacheStats().rowHits(), "node B did not cache the row");

            s3a.putObject(r -> r.bucket(bucket).key("k"), RequestBody.fromString("version two"));
            // Delivery is asynchronous: the announcement may reach B just after A acknowledged.
            await("node B reads version two", () -> get(s3b, bucket, "k").equals("version two"));

            redis.stop();
            await("both nodes stop trusting their cached rows",
                    () -> !rows(a).cacheStats().trusted() && !rows(b).cacheStats().trusted());
            S3Exception refused = assertThrows(S3Exception.class, () -> s3a.putObject(
                    r -> r.bucket(bucket).key("k"), RequestBody.fromString("version three")));
            assertEquals(503, refused.statusCode());
            assertEquals("version three", get(s3b, bucket, "k"), "the refused write was stored all the same");

            redis.start();
            await("both nodes listen again", () -> rows(a).cacheStats().trusted() && rows(b).cacheStats().trusted());
            assertEquals("version three", get(s3b, bucket, "k"));
            s3a.putObject(r -> r.bucket(bucket).key("k"), RequestBody.fromString("version four"));
            await("node B reads version four", () -> get(s3b, bucket, "k").equals("version four"));
        }
    }
}
