package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.StandaloneService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The actuator on a separate management port (docs/security.md): served there without
 * credentials (the operator binds it where only the scraper reaches), refused on the S3 port,
 * whose S3 API is unchanged.
 */
@Tag("integration")
class ManagementPortTest {
    private static final String KEY = "AKIDMANAGEMENT000001";
    private static final String SECRET = "management-test-secret-000000000";
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path tmp;

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theManagementPortServesTheActuatorAndTheS3PortDoesNot() throws Exception {
        try (ConfigurableApplicationContext ctx = StandaloneService.start(tmp, Map.of(
                "management.server.port", "0", "management.server.address", "127.0.0.1",
                "cairn.auth.access-key", KEY, "cairn.auth.secret-key", SECRET))) {
            int port = StandaloneService.port(ctx);
            int management = Integer.parseInt(ctx.getEnvironment().getProperty("local.management.port"));
            assertNotEquals(port, management);
            try (S3Client s3 = StandaloneService.client(ctx, KEY, SECRET)) {
                s3.listBuckets();
            }
            HttpResponse<String> prom = get(management, "/actuator/prometheus");
            assertEquals(200, prom.statusCode());
            assertTrue(prom.body().contains("cairn_s3_requests_seconds"), "the S3 port's meters");
            assertEquals(200, get(management, "/actuator/health/readiness").statusCode());
            assertEquals(403, get(port, "/actuator/prometheus").statusCode(), "the guard answers on the S3 port");
        }
    }
}
