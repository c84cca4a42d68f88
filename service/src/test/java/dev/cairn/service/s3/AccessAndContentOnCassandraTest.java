package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;
import software.amazon.awssdk.core.sync.RequestBody;
import org.junit.jupiter.api.Tag;

/** {@link AccessAndContentTest} with the service on the Cassandra store (the local test cluster). */
@Tag("integration")
@TestPropertySource(properties = {
        "cairn.store=cassandra",
        "cairn.cassandra.contact-points=${" + LocalCassandraCluster.CONTACT_POINTS_PROPERTY + "}",
        "cairn.cassandra.keyspace=" + LocalCassandraCluster.SERVICE_KEYSPACE,
        "cairn.cassandra.request-timeout=10s"})
class AccessAndContentOnCassandraTest extends AccessAndContentTest {
    static {
        LocalCassandraCluster.ensureRunning();
    }

    /** As on the engine, except that no engine runs: its meters are absent. */
    @Test
    @Override
    void healthAndMetricsAreExposed() throws Exception {
        String bucket = uniqueBucket("metrics");
        s3.createBucket(b -> b.bucket(bucket));
        s3.putObject(b -> b.bucket(bucket).key("m1"), RequestBody.fromString("same"));
        s3.putObject(b -> b.bucket(bucket).key("m2"), RequestBody.fromString("same"));
        HttpClient http = HttpClient.newHttpClient();
        HttpResponse<String> health = http.send(HttpRequest.newBuilder(endpoint().resolve("/actuator/health/readiness")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, health.statusCode());
        assertTrue(health.body().contains("UP"), health.body());
        String text = http.send(HttpRequest.newBuilder(endpoint().resolve("/actuator/prometheus"))
                .header("Authorization", basicAuth(ACCESS_KEY, SECRET_KEY)).build(), HttpResponse.BodyHandlers.ofString()).body();
        for (String metric : List.of("cairn_s3_requests_seconds_count{operation=\"PutObject\"",
                "cairn_s3_bytes_in_bytes_total", "cairn_store_dedup_ratio", "cairn_cassandra_settle_backlog",
                "cairn_cassandra_settles_total", "cairn_cassandra_settles_self_total",
                "cairn_cassandra_settles_overtaken_total")) {
            assertTrue(text.contains(metric), metric);
        }
        assertFalse(text.contains("cairn_engine_memtable_bytes"), "no engine runs on the Cassandra store");
        double ratio = Double.parseDouble(text.lines().filter(l -> l.startsWith("cairn_store_dedup_ratio"))
                .findFirst().orElseThrow().split(" ")[1]);
        assertTrue(ratio > 1.0, "a duplicate was written: " + ratio);
    }
}
