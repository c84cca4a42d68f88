package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;

/**
 * The actuator on a separate management port (docs/security.md): served there without
 * credentials (the operator binds it where only the scraper reaches), absent from the S3 port,
 * whose S3 API is unchanged.
 */
@Tag("integration")
@TestPropertySource(properties = {"management.server.port=0", "management.server.address=127.0.0.1"})
class ManagementPortTest extends ServiceTestSupport {
    @LocalManagementPort
    int managementPort;

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theManagementPortServesTheActuatorAndTheS3PortDoesNot() throws Exception {
        assertNotEquals(port, managementPort);
        s3.listBuckets();
        HttpResponse<String> prom = get(managementPort, "/actuator/prometheus");
        assertEquals(200, prom.statusCode());
        assertTrue(prom.body().contains("cairn_s3_requests_seconds"), "the S3 port's meters");
        assertEquals(200, get(managementPort, "/actuator/health/readiness").statusCode());
        assertNotEquals(200, get(port, "/actuator/prometheus").statusCode());
        assertEquals(403, get(port, "/actuator/prometheus").statusCode(), "the guard answers first");
    }
}
