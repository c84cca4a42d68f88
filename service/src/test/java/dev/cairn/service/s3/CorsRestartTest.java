package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.service.StandaloneService;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CORSRule;

/** A bucket's CORS rules survive a restart of the service, on either store. */
@Tag("integration")
class CorsRestartTest {
    private static final String KEY = "CORSRESTARTKEY0001";
    private static final String SECRET = "cors-restart-secret-000000000000000000";

    @TempDir
    Path dir;

    @Test
    void onTheEmbeddedStore() throws Exception {
        survivesARestart(Map.of());
    }

    @Test
    void onCassandra() throws Exception {
        LocalCassandraCluster.ensureRunning();
        survivesARestart(Map.of("cairn.store", "cassandra", "cairn.cassandra.contact-points", LocalCassandraCluster.CONTACT_POINTS,
                "cairn.cassandra.keyspace", LocalCassandraCluster.SERVICE_KEYSPACE, "cairn.cassandra.request-timeout", "10s"));
    }

    private void survivesARestart(Map<String, String> store) throws Exception {
        Map<String, String> props = new HashMap<>(store);
        props.put("cairn.auth.access-key", KEY);
        props.put("cairn.auth.secret-key", SECRET);
        String bucket = "cors-restart-" + System.nanoTime() % 1_000_000_000L;
        ConfigurableApplicationContext first = StandaloneService.start(dir.resolve("data"), props);
        try (S3Client s3 = StandaloneService.client(first, KEY, SECRET)) {
            s3.createBucket(b -> b.bucket(bucket));
            s3.putBucketCors(b -> b.bucket(bucket).corsConfiguration(c -> c.corsRules(CORSRule.builder()
                    .allowedOrigins("https://app.example").allowedMethods("PUT").maxAgeSeconds(90).build())));
        } finally {
            first.close();
        }
        ConfigurableApplicationContext second = StandaloneService.start(dir.resolve("data"), props);
        try (S3Client s3 = StandaloneService.client(second, KEY, SECRET)) {
            CORSRule rule = s3.getBucketCors(b -> b.bucket(bucket)).corsRules().get(0);
            assertEquals(90, rule.maxAgeSeconds());
            HttpResponse<String> preflight = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + StandaloneService.port(second) + "/" + bucket + "/k"))
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).header("Origin", "https://app.example")
                    .header("Access-Control-Request-Method", "PUT").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, preflight.statusCode(), preflight.body());
            assertEquals("https://app.example", preflight.headers().firstValue("Access-Control-Allow-Origin").orElse(null));
            s3.deleteBucketCors(b -> b.bucket(bucket));
            s3.deleteBucket(b -> b.bucket(bucket));
        } finally {
            second.close();
        }
    }
}
