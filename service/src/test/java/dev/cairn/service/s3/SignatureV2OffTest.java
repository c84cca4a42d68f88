package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.StandaloneService;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * With {@code cairn.auth.signature-v2=false}, requests validly signed with Version 2 (header and
 * presigned URL) are refused as S3 refuses them where only Version 4 is accepted, while Version 4
 * works.
 */
@Tag("integration")
class SignatureV2OffTest {
    private static final String KEY = "AKIDV2OFF0000000001";
    private static final String SECRET = "v2-off-secret-000000000000";

    @Test
    void versionTwoIsRefusedAsUnsupported() throws Exception {
        Path dir = Files.createTempDirectory("cairn-sigv2-off");
        try (ConfigurableApplicationContext ctx = StandaloneService.start(dir, Map.of("cairn.auth.access-key", KEY,
                "cairn.auth.secret-key", SECRET, "cairn.auth.signature-v2", "false"))) {
            try (var s3 = StandaloneService.client(ctx, KEY, SECRET)) {
                s3.createBucket(b -> b.bucket("v2off"));
            }
            String base = "http://127.0.0.1:" + StandaloneService.port(ctx);
            HttpClient http = HttpClient.newHttpClient();
            String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
            HttpResponse<String> header = http.send(HttpRequest.newBuilder(URI.create(base + "/v2off"))
                    .header("Date", date).header("Authorization", "AWS " + KEY + ":" + sign("GET\n\n\n" + date + "\n/v2off"))
                    .GET().build(), HttpResponse.BodyHandlers.ofString());
            refused(header);
            long expires = System.currentTimeMillis() / 1000 + 300;
            String signature = URLEncoder.encode(sign("GET\n\n\n" + expires + "\n/v2off"), StandardCharsets.UTF_8);
            HttpResponse<String> query = http.send(HttpRequest.newBuilder(URI.create(base + "/v2off?AWSAccessKeyId=" + KEY
                    + "&Expires=" + expires + "&Signature=" + signature)).GET().build(), HttpResponse.BodyHandlers.ofString());
            refused(query);
        }
    }

    private static void refused(HttpResponse<String> r) {
        assertEquals(400, r.statusCode(), r.body());
        assertTrue(r.body().contains("<Code>InvalidRequest</Code>"), r.body());
        assertTrue(r.body().contains("The authorization mechanism you have provided is not supported. "
                + "Please use AWS4-HMAC-SHA256."), r.body());
    }

    private static String sign(String stringToSign) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA1");
        mac.init(new SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
        return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    }
}
