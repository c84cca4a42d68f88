package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.service.CairnApplication;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A shutdown that begins while an upload is half sent stops accepting connections, lets that
 * upload finish with its answer, and only then closes the store: the object is there after a
 * restart. S3 requests are served by a Jetty handler of their own, so this checks that the
 * graceful shutdown still counts them.
 */
class GracefulShutdownTest {
    private static final String ACCESS = "AKIDGRACEFUL00000001";
    private static final String SECRET = "graceful/shutdown+secret=key0000000000000";

    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(CairnApplication.class).properties(Map.of(
                "server.port", "0",
                "server.address", "127.0.0.1",
                "cairn.data-dir", dataDir.toString(),
                "cairn.auth.access-key", ACCESS,
                "cairn.auth.secret-key", SECRET,
                "cairn.engine.memtable-size", "4MB",
                "logging.level.dev.cairn.service.access", "WARN")).run();
    }

    private static int port(ConfigurableApplicationContext ctx) {
        return ((WebServerApplicationContext) ctx).getWebServer().getPort();
    }

    private static S3Client client(int port) {
        return S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + port)).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS, SECRET)))
                .forcePathStyle(true).build();
    }

    @Test
    void anUploadInFlightFinishesBeforeTheServiceStops() throws Exception {
        byte[] body = new byte[256 * 1024];
        new Random(7).nextBytes(body);
        ConfigurableApplicationContext ctx = start();
        int port = port(ctx);
        try (S3Client s3 = client(port)) {
            s3.createBucket(b -> b.bucket("graceful"));
        }
        RawS3.Wire put = new RawS3(port, ACCESS, SECRET).signPut("/graceful/late", body, false, false, Map.of());
        RawS3.Response answer;
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write((put.head() + "Connection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(put.body(), 0, body.length / 2);
            out.flush();
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(ctx::close);
            awaitRefused(port);
            out.write(put.body(), body.length / 2, body.length - body.length / 2);
            out.flush();
            answer = RawS3.read(s.getInputStream());
            stopping.get();
        }
        assertEquals(200, answer.status(), answer.body());
        try (ConfigurableApplicationContext again = start(); S3Client s3 = client(port(again))) {
            assertArrayEquals(body, s3.getObjectAsBytes(b -> b.bucket("graceful").key("late")).asByteArray());
        }
    }

    /** Waits until the service no longer accepts connections: the shutdown has begun. */
    private static void awaitRefused(int port) throws InterruptedException {
        while (true) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                Thread.sleep(20);
            } catch (IOException refused) {
                return;
            }
        }
    }
}
