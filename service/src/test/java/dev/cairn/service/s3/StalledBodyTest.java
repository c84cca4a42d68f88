package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cairn.service.InFlightRequests;
import dev.cairn.service.StandaloneService;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A PUT whose body never arrives in full: the client stops sending and waits (RequestTimeout
 * once the connection's idle timeout passes), or stops and half-closes (IncompleteBody). Either
 * is the client's fault: a 400 and one log line without a stack trace, never a 500. A declared
 * length past the largest object is refused before any of the body is read. The idle timeout is
 * shortened to a second so the test does not wait Jetty's default 30 s.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StalledBodyTest {
    private static final String ACCESS = "AKIDSTALLED000000001";
    private static final String SECRET = "stalled/body+secret=key00000000000000000";
    private static final long FIVE_GIB = 5L << 30;

    @TempDir
    static Path dataDir;
    private ConfigurableApplicationContext service;
    private int port;
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger cairnLog = (Logger) LoggerFactory.getLogger("dev.cairn");

    @BeforeAll
    void start() {
        service = StandaloneService.start(dataDir, Map.of("cairn.auth.access-key", ACCESS,
                "cairn.auth.secret-key", SECRET, "server.jetty.connection-idle-timeout", "1s"));
        port = StandaloneService.port(service);
        try (S3Client s3 = StandaloneService.client(service, ACCESS, SECRET)) {
            s3.createBucket(b -> b.bucket("stalled"));
        }
        logged.start();
        cairnLog.addAppender(logged);
    }

    @AfterAll
    void stop() {
        cairnLog.detachAppender(logged);
        service.close();
    }

    @BeforeEach
    void clearLog() {
        logged.list.clear();
    }

    /** A signed PUT head (UNSIGNED-PAYLOAD) that declares {@code length} bytes. */
    private String putHead(String key, long length) {
        URI uri = URI.create("http://127.0.0.1:" + port + "/stalled/" + key);
        SdkHttpRequest unsigned = SdkHttpRequest.builder().method(SdkHttpMethod.PUT).uri(uri)
                .putHeader("Content-Length", Long.toString(length)).build();
        var signed = AwsV4HttpSigner.create().sign(r -> r.identity(AwsCredentialsIdentity.create(ACCESS, SECRET))
                .request(unsigned).putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false));
        StringBuilder head = new StringBuilder("PUT " + uri.getRawPath() + " HTTP/1.1\r\n");
        signed.request().forEachHeader((name, values) -> values.forEach(v -> head.append(name).append(": ")
                .append(v).append("\r\n")));
        return head.append("\r\n").toString();
    }

    private RawS3.Response putNineBytes(long declared, boolean halfClose) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(putHead("big", declared).getBytes(StandardCharsets.US_ASCII));
            out.write("nine byte".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            if (halfClose) {
                s.shutdownOutput();
            }
            return RawS3.read(s.getInputStream());
        }
    }

    private static void assertS3Error(RawS3.Response r, String code) {
        assertEquals(400, r.status(), r.body());
        assertTrue(r.body().contains("<Code>" + code + "</Code>"), r.body());
    }

    /** Waits until the service has finished every request: whatever it logs of one is logged by then. */
    private void awaitNoRequestInFlight() throws InterruptedException {
        InFlightRequests inFlight = ((JettyWebServer) ((WebServerApplicationContext) service).getWebServer()).getServer()
                .getDescendant(InFlightRequests.class);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (inFlight.getRequestsActive() > 0) {
            assertTrue(System.nanoTime() < deadline, "a request is still in flight");
            Thread.sleep(10);
        }
    }

    /** Nothing of the failure was logged at WARN or above with a stack trace, and at most one line. */
    private void assertLoggedQuietly() {
        List<ILoggingEvent> loud = logged.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
        assertTrue(loud.size() <= 1, loud.toString());
        loud.forEach(e -> assertEquals(null, e.getThrowableProxy(), e.getFormattedMessage()));
        assertFalse(logged.list.stream().anyMatch(e -> e.getLevel() == Level.ERROR), logged.list.toString());
    }

    @Test
    void aBodyThatStopsComingIsRequestTimeout() throws Exception {
        long start = System.nanoTime();
        RawS3.Response r = putNineBytes(FIVE_GIB, false);
        assertS3Error(r, "RequestTimeout");
        assertTrue(System.nanoTime() - start < 15_000_000_000L, "answered once the idle timeout passed");
        assertLoggedQuietly();
    }

    @Test
    void aBodyCutShortIsIncompleteBody() throws Exception {
        assertS3Error(putNineBytes(FIVE_GIB, true), "IncompleteBody");
        assertLoggedQuietly();
    }

    @Test
    void aClientThatHangsUpMidBodyLeavesOneQuietLine() throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.getOutputStream().write(putHead("big", FIVE_GIB).getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().write("nine byte".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (logged.list.stream().noneMatch(e -> e.getFormattedMessage().contains("IncompleteBody"))) {
            assertTrue(System.nanoTime() < deadline, "no line about the body: " + logged.list);
            Thread.sleep(20);
        }
        awaitNoRequestInFlight();
        assertLoggedQuietly();
    }

    @Test
    void aLengthPastTheLargestObjectIsRefusedBeforeTheBody() throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(putHead("huge", FIVE_GIB + 1).getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            long start = System.nanoTime();
            assertS3Error(RawS3.read(s.getInputStream()), "EntityTooLarge");
            assertTrue(System.nanoTime() - start < 900_000_000L, "answered without waiting for a body");
        }
        assertLoggedQuietly();
    }
}
