package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.service.StandaloneService;
import java.io.ByteArrayInputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Uploads through the console's API as its script sends them: a body past the multipart
 * threshold streams into the store's multipart upload part by part, and a body of unknown
 * length (chunked) too; both read back whole through S3.
 */
@Tag("integration")
class ConsoleUploadTest {
    static final String ACCESS = "CONSOLEUPLOAD0000001";
    static final String SECRET = "console/upload+secret0000000000000000000";

    @TempDir
    Path dir;

    @Test
    void largeAndChunkedUploadsGoThroughMultipartAndReadBackWhole() throws Exception {
        try (ConfigurableApplicationContext service = StandaloneService.start(dir.resolve("data"),
                Map.of("cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET));
             S3Client s3 = StandaloneService.client(service, ACCESS, SECRET)) {
            ConsoleHttp http = ConsoleHttp.signIn(StandaloneService.port(service), ACCESS, SECRET);
            assertEquals(303, http.post("/console/buckets", "name=uploads").statusCode());

            byte[] big = new byte[(int) UploadController.MULTIPART_THRESHOLD + 3 * 1024 * 1024 + 17];
            new Random(7).nextBytes(big);
            HttpResponse<String> put = http.put("/console/api/b/uploads/objects?key=" + ConsoleHttp.enc("big/one.bin"),
                    HttpRequest.BodyPublishers.ofByteArray(big));
            assertEquals(200, put.statusCode(), put.body());
            JsonNode answer = new ObjectMapper().readTree(put.body());
            assertEquals(sha256(big), answer.path("sha256").asText());
            HeadObjectResponse head = s3.headObject(b -> b.bucket("uploads").key("big/one.bin"));
            long parts = (big.length + UploadController.PART_SIZE - 1) / UploadController.PART_SIZE;
            assertTrue(head.eTag().endsWith("-" + parts + "\""), "stored in " + parts + " parts: " + head.eTag());
            assertArrayEquals(big, s3.getObjectAsBytes(b -> b.bucket("uploads").key("big/one.bin")).asByteArray());

            byte[] small = new byte[300_000];
            new Random(8).nextBytes(small);
            HttpResponse<String> chunked = http.put("/console/api/b/uploads/objects?key=chunked.bin",
                    HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(small)));
            assertEquals(200, chunked.statusCode(), chunked.body());
            assertArrayEquals(small, s3.getObjectAsBytes(b -> b.bucket("uploads").key("chunked.bin")).asByteArray());
            assertTrue(s3.headObject(b -> b.bucket("uploads").key("chunked.bin")).eTag().endsWith("-1\""),
                    "a body of unknown length is one part of a multipart upload");
        }
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }
}
