package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.StandaloneService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;

/**
 * Slow readers of objects of 1 MiB or less hold no request thread: their answers are written
 * detached, within {@code cairn.limits.pending-answer-bytes}. Many more slow readers than Jetty
 * has threads leave the service answering everyone else; a reader that goes away or stops
 * reading gives its bytes back; past the budget answers are written holding their thread, and
 * are still right.
 */
@Tag("integration")
class SlowSmallReadersTest {
    private static final String ACCESS = "AKIDSLOWSMALLREADERS";
    private static final String SECRET = "slow/small+readers=secret000000000000000";
    private static final int SLOW_READERS = 400;
    /** Far fewer than the slow readers: served one thread each, they would starve the probe. */
    private static final String MAX_THREADS = "32";
    private static final int IMAGE = 200 * 1024;

    @TempDir
    Path dataDir;

    @Test
    void manySlowReadersLeaveThreadsForEveryoneElse() throws Exception {
        byte[] image = bytes(1, IMAGE);
        byte[] probe = bytes(2, 20 * 1024);
        byte[] thumb = bytes(6, 60 * 1024);
        try (ConfigurableApplicationContext ctx = StandaloneService.start(dataDir, Map.of(
                "cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET,
                "server.jetty.threads.max", MAX_THREADS,
                // Images are read from the store for each answer; thumbnails share the cache's bytes.
                "cairn.cache.max-cached-object-size", "100KB",
                "cairn.limits.pending-answer-bytes", "200MB",
                // The paused readers must not be timed out while the test runs on a loaded machine.
                "server.jetty.connection-idle-timeout", "10m"));
             S3Client s3 = StandaloneService.client(ctx, ACCESS, SECRET)) {
            PendingAnswers pending = ctx.getBean(S3FrontDoor.class).pendingAnswers();
            s3.createBucket(b -> b.bucket("images").acl(BucketCannedACL.PUBLIC_READ));
            s3.putObject(b -> b.bucket("images").key("image"), RequestBody.fromBytes(image));
            s3.putObject(b -> b.bucket("images").key("thumb"), RequestBody.fromBytes(thumb));
            s3.putObject(b -> b.bucket("images").key("probe"), RequestBody.fromBytes(probe));
            int port = StandaloneService.port(ctx);
            smallSendBuffers(ctx);

            List<Socket> readers = new ArrayList<>();
            try {
                for (int i = 0; i < SLOW_READERS; i++) {
                    readers.add(slowReader(port, i % 4 == 3 ? "/images/thumb" : "/images/image"));
                }
                // Each reads a few bytes, its status line, and pauses. Served one thread each, only
                // as many as there are threads would ever see theirs.
                for (Socket reader : readers) {
                    String status = line(reader.getInputStream());
                    assertTrue(status.startsWith("HTTP/1.1 200"), status);
                }
                assertTrue(pending.used() > 0, "paused readers hold no answer bytes");

                for (int i = 0; i < 20; i++) {
                    RawS3.Response answer = exchange(port, "/images/probe");
                    assertEquals(200, answer.status());
                    assertEquals(Integer.toString(probe.length), answer.headers().get("content-length"));
                }

                // Half go away mid-answer; the other half read on and get every byte.
                for (int i = 0; i < readers.size(); i += 2) {
                    readers.get(i).close();
                }
                for (int i = 1; i < readers.size(); i += 2) {
                    assertArrayEquals(i % 4 == 3 ? thumb : image, restOfBody(readers.get(i).getInputStream()),
                            "reader " + i);
                }
            } finally {
                for (Socket reader : readers) {
                    reader.close();
                }
            }
            awaitZero(pending::used, "the answers' bytes were not given back");
        }
    }

    @Test
    void pastTheBudgetAnswersAreWrittenHoldingTheirThreadAndStillRight() throws Exception {
        byte[] small = bytes(3, 50 * 1024);
        byte[] image = bytes(4, IMAGE);
        try (ConfigurableApplicationContext ctx = StandaloneService.start(dataDir, Map.of(
                "cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET,
                "cairn.cache.max-cached-object-size", "1KB",
                "cairn.limits.pending-answer-bytes", "100KB"));
             S3Client s3 = StandaloneService.client(ctx, ACCESS, SECRET)) {
            PendingAnswers pending = ctx.getBean(S3FrontDoor.class).pendingAnswers();
            s3.createBucket(b -> b.bucket("budget"));
            s3.putObject(b -> b.bucket("budget").key("small"), RequestBody.fromBytes(small));
            s3.putObject(b -> b.bucket("budget").key("image"), RequestBody.fromBytes(image));

            assertArrayEquals(small, s3.getObjectAsBytes(b -> b.bucket("budget").key("small")).asByteArray());
            assertEquals(0, pending.refusals());
            awaitZero(pending::used, "the small answer's bytes were not given back");
            assertArrayEquals(image, s3.getObjectAsBytes(b -> b.bucket("budget").key("image")).asByteArray());
            assertEquals(1, pending.refusals());
            assertArrayEquals(Arrays.copyOfRange(image, 1000, 150_000), s3.getObjectAsBytes(b -> b.bucket("budget")
                    .key("image").range("bytes=1000-149999")).asByteArray());
            assertEquals(2, pending.refusals());
            // Within the budget again: written detached.
            assertArrayEquals(Arrays.copyOfRange(image, 1000, 51_000), s3.getObjectAsBytes(b -> b.bucket("budget")
                    .key("image").range("bytes=1000-50999")).asByteArray());
            assertEquals(2, pending.refusals());
            awaitZero(pending::used, "the answers' bytes were not given back");
        }
    }

    @Test
    void aReaderThatStopsReadingIsClosedByTheIdleTimeout() throws Exception {
        byte[] object = bytes(5, 1 << 20);
        try (ConfigurableApplicationContext ctx = StandaloneService.start(dataDir, Map.of(
                "cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET,
                "cairn.cache.max-cached-object-size", "1KB",
                "server.jetty.connection-idle-timeout", "1s"));
             S3Client s3 = StandaloneService.client(ctx, ACCESS, SECRET)) {
            PendingAnswers pending = ctx.getBean(S3FrontDoor.class).pendingAnswers();
            s3.createBucket(b -> b.bucket("stops").acl(BucketCannedACL.PUBLIC_READ));
            s3.putObject(b -> b.bucket("stops").key("object"), RequestBody.fromBytes(object));
            int port = StandaloneService.port(ctx);
            smallSendBuffers(ctx);
            io.micrometer.core.instrument.MeterRegistry meters = ctx.getBean(io.micrometer.core.instrument.MeterRegistry.class);
            io.micrometer.core.instrument.Timer gets = meters.get("cairn.s3.requests").tag("operation", "GetObject").timer();
            io.micrometer.core.instrument.Counter bytesOut = meters.get("cairn.s3.bytes.out").counter();
            double outBefore = bytesOut.count();

            try (Socket reader = slowReader(port, "/stops/object")) {
                String status = line(reader.getInputStream());
                assertTrue(status.startsWith("HTTP/1.1 200"), status);
                awaitZero(pending::used, "the stopped reader's answer was not given back");
                awaitZero(() -> 1 - gets.count(), "the stopped reader's GET was not recorded");
                // Only what the connection took counts as sent, not the whole answer.
                double sent = bytesOut.count() - outBefore;
                assertTrue(sent > 0 && sent < object.length, "bytes out: " + sent);
                // What the kernel's buffers held, then the end: the service closed the connection.
                long received = 0;
                try {
                    received = reader.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
                } catch (java.net.SocketException reset) {
                    // A reset also says the service closed it.
                }
                assertTrue(received < object.length, "the whole answer arrived: " + received);
            }
        }
    }

    /**
     * Over loopback's 64 KiB segments the kernel grows a connection's send buffer past a MiB, so
     * a small answer would all sit in the kernel; a slow reader across a network keeps it far
     * smaller. A fixed send buffer on the connections accepted from now on makes it small here too.
     */
    private static void smallSendBuffers(ConfigurableApplicationContext ctx) {
        org.eclipse.jetty.server.Server server = ((org.springframework.boot.web.embedded.jetty.JettyWebServer)
                ((org.springframework.boot.web.context.WebServerApplicationContext) ctx).getWebServer()).getServer();
        for (org.eclipse.jetty.server.Connector c : server.getConnectors()) {
            if (c instanceof org.eclipse.jetty.server.ServerConnector connector) {
                connector.setAcceptedSendBufferSize(16 * 1024);
            }
        }
    }

    /** A GET from a connection whose small receive window keeps most of the answer in the service. */
    private static Socket slowReader(int port, String path) throws IOException {
        Socket s = new Socket();
        try {
            s.setReceiveBufferSize(8 * 1024);
            s.setSoTimeout(120_000);
            s.connect(new InetSocketAddress("127.0.0.1", port));
            s.getOutputStream().write(get(port, path));
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    private static byte[] get(int port, String path) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    private static RawS3.Response exchange(int port, String path) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(120_000);
            s.getOutputStream().write(get(port, path));
            return RawS3.read(s.getInputStream());
        }
    }

    /** The headers after the status line, then the body of their Content-Length. */
    private static byte[] restOfBody(InputStream in) throws IOException {
        Map<String, String> headers = new HashMap<>();
        for (String h = line(in); !h.isEmpty(); h = line(in)) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
        }
        return in.readNBytes(Integer.parseInt(headers.get("content-length")));
    }

    private static void awaitZero(LongSupplier value, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (value.getAsLong() != 0) {
            assertTrue(System.nanoTime() < deadline, message + " within 120 s: " + value.getAsLong() + " left");
            Thread.sleep(20);
        }
    }

    private static byte[] bytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }
}
