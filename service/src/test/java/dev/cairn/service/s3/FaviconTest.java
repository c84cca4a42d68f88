package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;

/**
 * A browser's {@code GET /favicon.ico} gets the icon, not S3's AccessDenied (which every console
 * page logged as an error); signed requests still reach a bucket of that name.
 */
@Tag("integration")
class FaviconTest extends ServiceTestSupport {
    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<byte[]> send(String method, String pathAndQuery) throws Exception {
        return http.send(HttpRequest.newBuilder(endpoint().resolve(pathAndQuery)).method(method, HttpRequest.BodyPublishers.noBody())
                .header("Accept", "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8").build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    private static byte[] icon() throws Exception {
        try (InputStream in = FaviconTest.class.getResourceAsStream("/static/favicon.ico")) {
            return in.readAllBytes();
        }
    }

    @Test
    void aBrowserGetsTheIcon() throws Exception {
        HttpResponse<byte[]> get = send("GET", "/favicon.ico");
        assertEquals(200, get.statusCode(), () -> new String(get.body()));
        assertTrue(get.headers().firstValue("Content-Type").orElse("").startsWith("image/"), get.headers().toString());
        assertArrayEquals(icon(), get.body());
        assertArrayEquals(new byte[] {0, 0, 1, 0}, java.util.Arrays.copyOf(get.body(), 4), "an ICO file");
        assertEquals(200, send("HEAD", "/favicon.ico").statusCode());
    }

    @Test
    void signedRequestsStillReachABucketNamedFaviconIco() throws Exception {
        String bucket = "favicon.ico";
        s3.createBucket(b -> b.bucket(bucket));
        try {
            s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("in the bucket"));
            assertEquals("k", s3.listObjectsV2(b -> b.bucket(bucket)).contents().get(0).key());
            HttpResponse<byte[]> anonymousListing = send("GET", "/favicon.ico?list-type=2");
            assertEquals(403, anonymousListing.statusCode());
            assertTrue(new String(anonymousListing.body()).contains("<Code>AccessDenied</Code>"));
        } finally {
            s3.deleteObject(b -> b.bucket(bucket).key("k"));
            s3.deleteBucket(b -> b.bucket(bucket));
        }
    }
}
