package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A request whose header section exceeds {@code cairn.limits.max-header-size} (16 KB by default)
 * gets S3's XML error, sent over a raw socket since no SDK sends such a request.
 */
class HeaderSectionLimitTest extends ServiceTestSupport {

    private RawS3.Response send(String method, int headerBytes) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            String head = method + " /some-bucket/key HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                    + "x-amz-meta-big: " + "a".repeat(headerBytes) + "\r\nConnection: close\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return RawS3.read(s.getInputStream());
        }
    }

    @Test
    void anOversizedHeaderSectionGetsS3sError() throws Exception {
        RawS3.Response r = send("GET", 20 * 1024);
        assertEquals(400, r.status());
        assertNotNull(r.headers().get("x-amz-request-id"));
        assertEquals("application/xml", r.headers().get("content-type"));
        assertTrue(r.body().contains("<Code>RequestHeaderSectionTooLarge</Code>"), r.body());
        assertTrue(r.body().contains("<RequestId>" + r.headers().get("x-amz-request-id") + "</RequestId>"), r.body());

        RawS3.Response head = send("HEAD", 20 * 1024);
        assertEquals(400, head.status());
        assertNotNull(head.headers().get("x-amz-request-id"));
    }

    @Test
    void aHeaderSectionWithinTheLimitReachesS3() throws Exception {
        RawS3.Response r = send("GET", 12 * 1024);
        assertEquals(403, r.status());
        assertTrue(r.body().contains("<Code>AccessDenied</Code>"), r.body());
    }
}
