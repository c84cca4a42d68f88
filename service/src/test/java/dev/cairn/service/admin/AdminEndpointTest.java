package dev.cairn.service.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.service.StandaloneService;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.s3.S3Client;

/** The checkpoint endpoint of the real service: signed requests only, create, list, release. */
@Tag("integration")
class AdminEndpointTest {
    private static final String ACCESS = "ADMINTESTKEY";
    private static final String SECRET = "admin-test-secret-0123456789";
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dataDir;

    private HttpResponse<String> call(int port, String method, String path, String access, String secret) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + port + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody());
        if (access != null) {
            SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.valueOf(method)).uri(uri)
                    .putHeader("x-amz-content-sha256", EMPTY_SHA256).build();
            var signed = AwsV4HttpSigner.create().sign(r -> r.identity(AwsCredentialsIdentity.create(access, secret))
                    .request(unsigned).putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                    .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false));
            signed.request().headers().forEach((name, values) -> {
                if (!name.equalsIgnoreCase("host")) {
                    values.forEach(v -> b.header(name, v));
                }
            });
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void onlySignedRequestsTakeListAndReleaseCheckpoints() throws Exception {
        try (ConfigurableApplicationContext ctx = StandaloneService.start(dataDir,
                Map.of("cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET))) {
            int port = StandaloneService.port(ctx);
            try (S3Client s3 = StandaloneService.client(ctx, ACCESS, SECRET)) {
                s3.createBucket(r -> r.bucket("ads"));
                s3.putObject(r -> r.bucket("ads").key("a.jpg"), RequestBody.fromString("jpeg bytes"));
            }

            HttpResponse<String> anonymous = call(port, "POST", "/_admin/checkpoints", null, null);
            assertEquals(403, anonymous.statusCode(), anonymous.body());
            assertEquals(403, call(port, "POST", "/_admin/checkpoints", ACCESS, "wrong-secret").statusCode());
            assertEquals(403, call(port, "POST", "/_admin/checkpoints", "NOSUCHKEY", SECRET).statusCode());
            assertEquals(403, call(port, "GET", "/_admin/checkpoints", null, null).statusCode());
            assertFalse(Files.exists(dataDir.resolve("checkpoints")) && Files.list(dataDir.resolve("checkpoints")).findAny().isPresent(),
                    "no checkpoint taken by a refused request");

            HttpResponse<String> created = call(port, "POST", "/_admin/checkpoints", ACCESS, SECRET);
            assertEquals(201, created.statusCode(), created.body());
            JsonNode c = JSON.readTree(created.body());
            Path path = Path.of(c.get("path").asText());
            assertTrue(Files.exists(path.resolve("CURRENT")), "an engine checkpoint at " + path);
            assertTrue(path.startsWith(dataDir.toAbsolutePath()), path.toString());
            assertTrue(c.get("expiresAt").asText().compareTo(c.get("createdAt").asText()) > 0);

            HttpResponse<String> listed = call(port, "GET", "/_admin/checkpoints", ACCESS, SECRET);
            assertEquals(200, listed.statusCode());
            List<String> ids = JSON.readTree(listed.body()).get("checkpoints").findValuesAsText("id");
            assertEquals(List.of(c.get("id").asText()), ids);
            assertEquals("PT6H", JSON.readTree(listed.body()).get("lease").asText(), "the documented default lease");

            assertEquals(403, call(port, "DELETE", "/_admin/checkpoints/" + c.get("id").asText(), null, null).statusCode());
            assertEquals(204, call(port, "DELETE", "/_admin/checkpoints/" + c.get("id").asText(), ACCESS, SECRET).statusCode());
            assertFalse(Files.exists(path));
            assertEquals(404, call(port, "DELETE", "/_admin/checkpoints/" + c.get("id").asText(), ACCESS, SECRET).statusCode());
            assertEquals(405, call(port, "PUT", "/_admin/checkpoints", ACCESS, SECRET).statusCode());
            assertEquals(404, call(port, "GET", "/_admin/other", ACCESS, SECRET).statusCode());

            // The S3 API is unchanged next to it.
            try (S3Client s3 = StandaloneService.client(ctx, ACCESS, SECRET)) {
                assertEquals("jpeg bytes", s3.getObjectAsBytes(r -> r.bucket("ads").key("a.jpg")).asUtf8String());
            }
        }
    }
}
