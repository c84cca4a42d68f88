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
 * Requests Jetty refuses while parsing them, before any filter runs: a header section or request
 * line over {@code cairn.limits.max-header-size} (16 KB by default), malformed syntax. They get
 * S3 XML errors with a request id. Sent over a raw socket, since no SDK sends such requests.
 */
class ProtocolErrorTest extends ServiceTestSupport {

    private RawS3.Response send(String head) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            out.write((head + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return RawS3.read(s.getInputStream());
        }
    }

    private String request(String method, String path, int headerBytes) {
        return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + "x-amz-meta-big: " + "a".repeat(headerBytes) + "\r\n";
    }

    private static void assertS3Error(RawS3.Response r, String code) {
        assertEquals(400, r.status());
        String id = r.headers().get("x-amz-request-id");
        assertNotNull(id);
        assertEquals("application/xml", r.headers().get("content-type"));
        assertTrue(r.body().contains("<Code>" + code + "</Code>"), r.body());
        assertTrue(r.body().contains("<RequestId>" + id + "</RequestId>"), r.body());
    }

    @Test
    void anOversizedHeaderSectionGetsS3sError() throws Exception {
        assertS3Error(send(request("GET", "/some-bucket/key", 20 * 1024)), "RequestHeaderSectionTooLarge");
        RawS3.Response head = send(request("HEAD", "/some-bucket/key", 20 * 1024));
        assertEquals(400, head.status());
        assertNotNull(head.headers().get("x-amz-request-id"));
    }

    @Test
    void protocolErrorsAreCountedByCode() throws Exception {
        send(request("GET", "/some-bucket/key", 20 * 1024));
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(("GET /actuator/prometheus HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                    + basicAuth(METRICS_KEY, METRICS_SECRET) + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String text = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(text.contains("cairn_s3_errors_total{code=\"RequestHeaderSectionTooLarge\"}"), text);
        }
    }

    @Test
    void anOversizedRequestLineGetsS3sError() throws Exception {
        assertS3Error(send(request("GET", "/some-bucket/" + "k".repeat(20 * 1024), 0)), "RequestHeaderSectionTooLarge");
    }

    @Test
    void malformedSyntaxGetsS3sError() throws Exception {
        assertS3Error(send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nNo colon here\r\n"), "InvalidRequest");
    }

    @Test
    void aHeaderSectionWithinTheLimitReachesS3() throws Exception {
        RawS3.Response r = send(request("GET", "/some-bucket/key", 12 * 1024));
        assertEquals(403, r.status());
        assertTrue(r.body().contains("<Code>AccessDenied</Code>"), r.body());
    }
}
