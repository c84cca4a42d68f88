package dev.cairn.backup.source.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * The service's checkpoint endpoint ({@code /_admin/checkpoints}), called with requests signed
 * by AWS Signature V4 (service {@code s3}) with an access key of the service. Thread-safe.
 */
final class AdminClient {
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A checkpoint the service holds for us. */
    record Checkpoint(String id, Path path, Instant expiresAt) {
    }

    private final URI base;
    private final AwsCredentialsIdentity credentials;
    private final String region;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    AdminClient(String serviceUrl, String accessKey, String secretKey, String region) {
        String u = serviceUrl.endsWith("/") ? serviceUrl.substring(0, serviceUrl.length() - 1) : serviceUrl;
        this.base = URI.create(u);
        this.credentials = AwsCredentialsIdentity.create(accessKey, secretKey);
        this.region = region;
    }

    Checkpoint create() throws IOException {
        HttpResponse<String> r = send(SdkHttpMethod.POST, "/_admin/checkpoints");
        if (r.statusCode() != 201) {
            throw failure("taking a checkpoint", r);
        }
        JsonNode n = JSON.readTree(r.body());
        return new Checkpoint(n.path("id").asText(), Path.of(n.path("path").asText()),
                Instant.parse(n.path("expiresAt").asText()));
    }

    void release(String id) throws IOException {
        HttpResponse<String> r = send(SdkHttpMethod.DELETE, "/_admin/checkpoints/" + id);
        if (r.statusCode() != 204 && r.statusCode() != 404) {
            throw failure("releasing checkpoint " + id, r);
        }
    }

    private IOException failure(String what, HttpResponse<String> r) {
        String hint = r.statusCode() == 403 ? " (check --admin-access-key-file and --admin-secret-key-file)" : "";
        return new IOException(what + " at " + base + " failed: HTTP " + r.statusCode() + " " + r.body() + hint);
    }

    private HttpResponse<String> send(SdkHttpMethod method, String path) throws IOException {
        URI uri = base.resolve(path);
        SdkHttpRequest unsigned = SdkHttpRequest.builder().method(method).uri(uri)
                .putHeader("x-amz-content-sha256", EMPTY_SHA256).build();
        SignedRequest signed = signer.sign(r -> r.identity(credentials).request(unsigned)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false));
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofMinutes(5))
                .method(method.name(), HttpRequest.BodyPublishers.noBody());
        for (Map.Entry<String, List<String>> h : signed.request().headers().entrySet()) {
            if (!h.getKey().equalsIgnoreCase("host")) {
                for (String v : h.getValue()) {
                    b.header(h.getKey(), v);
                }
            }
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while calling " + uri, e);
        } catch (IOException e) {
            throw new IOException("cannot reach the service at " + uri + ": " + e, e);
        }
    }
}
