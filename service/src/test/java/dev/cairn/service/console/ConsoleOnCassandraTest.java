package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.service.ServiceTestSupport;
import dev.cairn.store.cassandra.LocalCassandraCluster;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/** The operations page on the Cassandra store shows every node of the cluster with its datacenter and state. */
@Tag("integration")
@TestPropertySource(properties = {
        "cairn.store=cassandra",
        "cairn.cassandra.contact-points=${" + LocalCassandraCluster.CONTACT_POINTS_PROPERTY + "}",
        "cairn.cassandra.keyspace=" + LocalCassandraCluster.SERVICE_KEYSPACE,
        "cairn.cassandra.request-timeout=10s"})
class ConsoleOnCassandraTest extends ServiceTestSupport {
    static {
        LocalCassandraCluster.ensureRunning();
    }

    @Test
    void theOperationsPageListsTheNodesOfEachDatacenter() throws Exception {
        HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String base = "http://127.0.0.1:" + port;
        String form = http.send(HttpRequest.newBuilder(URI.create(base + "/console/login")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher token = Pattern.compile("name=\"signin\" value=\"([^\"]+)\"").matcher(form);
        assertTrue(token.find(), form);
        String body = "accessKey=" + enc(ACCESS_KEY) + "&secretKey=" + enc(SECRET_KEY) + "&signin=" + enc(token.group(1));
        HttpResponse<String> signedIn = http.send(HttpRequest.newBuilder(URI.create(base + "/console/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(303, signedIn.statusCode(), signedIn.body());

        String page = http.send(HttpRequest.newBuilder(URI.create(base + "/console/ops")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(page.contains("<h2>Cassandra nodes</h2>"), page);
        JsonNode ops = new ObjectMapper().readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/console/api/ops"))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        Map<String, String> states = new HashMap<>();
        Map<String, String> datacenters = new HashMap<>();
        for (JsonNode n : ops.path("nodes")) {
            states.put(n.path("address").asText(), n.path("state").asText());
            datacenters.put(n.path("address").asText(), n.path("datacenter").asText());
        }
        assertEquals(LocalCassandraCluster.SERVING_NODES + LocalCassandraCluster.BACKUP_NODES, states.size(), ops.toString());
        for (int node = 1; node <= LocalCassandraCluster.SERVING_NODES; node++) {
            String address = LocalCassandraCluster.address(node);
            assertEquals("serving", datacenters.get(address), ops.toString());
            assertEquals("UP", states.get(address), ops.toString());
        }
        assertEquals("backup", datacenters.get(LocalCassandraCluster.BACKUP_CONTACT_POINT), ops.toString());
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
