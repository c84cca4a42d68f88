package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.cairn.service.InFlightRequests;
import dev.cairn.service.StandaloneService;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.services.s3.S3Client;
import org.junit.jupiter.api.Tag;

/**
 * A shutdown that begins while an upload is half sent stops accepting connections, lets that
 * upload finish with its answer, and only then closes the store: the object is there after a
 * restart. S3 requests are served by a Jetty handler of their own, outside the servlet layer;
 * this checks the behaviour end to end, whichever of Spring and Jetty does the waiting.
 */
@Tag("integration")
class GracefulShutdownTest {
    private static final String ACCESS = "AKIDGRACEFUL00000001";
    private static final String SECRET = "graceful/shutdown+secret=key0000000000000";

    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext start() {
        return StandaloneService.start(dataDir, Map.of("cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET));
    }

    @Test
    void anUploadInFlightFinishesBeforeTheServiceStops() throws Exception {
        byte[] body = new byte[256 * 1024];
        new Random(7).nextBytes(body);
        ConfigurableApplicationContext ctx = start();
        int port = StandaloneService.port(ctx);
        // What Spring's graceful shutdown polls for the requests in flight: our count.
        JettyWebServer server = (JettyWebServer) ((WebServerApplicationContext) ctx).getWebServer();
        assertInstanceOf(InFlightRequests.class, server.getServer().getHandler());
        try (S3Client s3 = StandaloneService.client(ctx, ACCESS, SECRET)) {
            s3.createBucket(b -> b.bucket("graceful"));
        }
        RawS3.Wire put = new RawS3(port, ACCESS, SECRET).signPut("/graceful/late", body, false, false, Map.of());
        RawS3.Response answer;
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            // The 100 answer proves the handler has the request: a connection whose head is still
            // unparsed counts as idle, and a graceful shutdown may close it.
            out.write((put.head() + "Expect: 100-continue\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertEquals(100, RawS3.read(s.getInputStream()).status());
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
        try (ConfigurableApplicationContext again = start(); S3Client s3 = StandaloneService.client(again, ACCESS, SECRET)) {
            assertArrayEquals(body, s3.getObjectAsBytes(b -> b.bucket("graceful").key("late")).asByteArray());
        }
    }

    /** Waits until the service no longer accepts connections: the shutdown has begun. */
    private static void awaitRefused(int port) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                Thread.sleep(20);
            } catch (IOException refused) {
                return;
            }
        }
        throw new AssertionError("the service still accepted connections 60 s after its shutdown began");
    }
}
