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
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;

/**
 * A reader that stops reading a large object keeps its streaming slot
 * ({@code cairn.limits.max-streaming-reads}) and its thread, and nothing more: while it does,
 * another large read is refused with 503 SlowDown, small objects and short ranges are served,
 * and once the reader is gone the slot is free again. The reader's 200 proves it holds the slot:
 * the head goes out with the first write of the body, after the slot is taken.
 */
@Tag("integration")
class StreamingReadSlotsTest {
    private static final String ACCESS = "AKIDSTREAMINGSLOTS01";
    private static final String SECRET = "streaming/slots+secret=key000000000000000";
    private static final int LARGE = 32 << 20;

    @TempDir
    Path dataDir;

    @Test
    void aStalledReaderHoldsItsSlotAndOnlyItsSlot() throws Exception {
        byte[] large = new byte[LARGE];
        new Random(3).nextBytes(large);
        byte[] small = Arrays.copyOf(large, 20 * 1024);
        try (ConfigurableApplicationContext ctx = StandaloneService.start(dataDir, Map.of(
                "cairn.auth.access-key", ACCESS, "cairn.auth.secret-key", SECRET,
                "cairn.limits.max-streaming-reads", "1",
                // The stalled reader must not be timed out while the test runs on a loaded machine.
                "server.jetty.connection-idle-timeout", "10m"));
             S3Client s3 = StandaloneService.client(ctx, ACCESS, SECRET)) {
            s3.createBucket(b -> b.bucket("slots").acl(BucketCannedACL.PUBLIC_READ));
            s3.putObject(b -> b.bucket("slots").key("large"), RequestBody.fromBytes(large));
            s3.putObject(b -> b.bucket("slots").key("small"), RequestBody.fromBytes(small));
            int port = StandaloneService.port(ctx);

            try (Socket stalled = new Socket()) {
                // A small receive window: the object cannot sit in socket buffers, the service's write waits.
                stalled.setReceiveBufferSize(16 * 1024);
                stalled.setSoTimeout(60_000);
                stalled.connect(new InetSocketAddress("127.0.0.1", port));
                stalled.getOutputStream().write(get(port, "/slots/large", null));
                String status = line(stalled.getInputStream());
                assertTrue(status.startsWith("HTTP/1.1 200"), status);

                RawS3.Response refused = exchange(port, "/slots/large", null);
                assertEquals(503, refused.status(), refused.body());
                assertTrue(refused.body().contains("<Code>SlowDown</Code>"), refused.body());

                RawS3.Response smallAnswer = exchange(port, "/slots/small", null);
                assertEquals(200, smallAnswer.status());
                assertEquals(small.length, Integer.parseInt(smallAnswer.headers().get("content-length")));
                RawS3.Response shortRange = exchange(port, "/slots/large", "bytes=0-1048575");
                assertEquals(206, shortRange.status());
            }

            // The service learns that the reader is gone at its next write; then the slot is free.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                byte[] range = rangeBody(port, 5_000_000, 7_999_999);
                if (range != null) {
                    assertArrayEquals(Arrays.copyOfRange(large, 5_000_000, 8_000_000), range);
                    break;
                }
                assertTrue(System.nanoTime() < deadline, "the slot was not given back within 60 s");
                Thread.sleep(50);
            }
        }
    }

    private static byte[] get(int port, String path, String range) {
        return ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + (range == null ? "" : "Range: " + range + "\r\n") + "\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static RawS3.Response exchange(int port, String path, String range) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            s.getOutputStream().write(get(port, path, range));
            return RawS3.read(s.getInputStream());
        }
    }

    /** The bytes of a range longer than 1 MiB, or null when the answer is 503 (no slot free yet). */
    private static byte[] rangeBody(int port, long first, long last) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            s.getOutputStream().write(get(port, "/slots/large", "bytes=" + first + "-" + last));
            InputStream in = s.getInputStream();
            String status = line(in);
            long length = -1;
            for (String h = line(in); !h.isEmpty(); h = line(in)) {
                if (h.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                    length = Long.parseLong(h.substring(15).trim());
                }
            }
            if (status.startsWith("HTTP/1.1 503")) {
                return null;
            }
            assertTrue(status.startsWith("HTTP/1.1 206"), status);
            byte[] body = in.readNBytes((int) length);
            assertEquals(last - first + 1, body.length);
            return body;
        }
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
