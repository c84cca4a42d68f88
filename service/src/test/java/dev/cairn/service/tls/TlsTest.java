package dev.cairn.service.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.StandaloneService;
import java.math.BigInteger;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import javax.net.ssl.SSLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The service over HTTPS in this JVM: the AWS SDK trusting the test authority, an SDK with the
 * JDK's default trust refused, plain HTTP on loopback beside it, and a certificate replaced on
 * disk served to new connections without a restart.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsTest {
    @TempDir
    static Path tmp;
    private TestCertificates ca;
    private TestCertificates.Issued served;
    private ConfigurableApplicationContext service;

    @BeforeAll
    void start() throws Exception {
        ca = TestCertificates.authority(tmp);
        served = ca.issue("server");
        service = TlsServiceSupport.start(tmp.resolve("data"), served, Map.of("cairn.tls.http-port", "0"));
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    private static void roundTrip(S3Client s3, String bucket) {
        byte[] body = bytes(20 << 10, bucket.hashCode());
        s3.createBucket(r -> r.bucket(bucket));
        s3.putObject(r -> r.bucket(bucket).key("a/b.jpg"), RequestBody.fromBytes(body));
        assertArrayEquals(body, s3.getObjectAsBytes(r -> r.bucket(bucket).key("a/b.jpg")).asByteArray());
    }

    @Test
    void sdkOverHttpsTrustingTheTestAuthority() throws Exception {
        try (S3Client s3 = TlsServiceSupport.client(TlsServiceSupport.httpsEndpoint(service), ca.trustManagers())) {
            roundTrip(s3, "tls-sdk");
        }
    }

    @Test
    void clientThatDoesNotTrustTheAuthorityIsRefused() {
        try (S3Client s3 = TlsServiceSupport.client(TlsServiceSupport.httpsEndpoint(service), null)) {
            SdkClientException e = assertThrows(SdkClientException.class, s3::listBuckets);
            assertTrue(causes(e, SSLException.class), () -> "not a TLS failure: " + e);
        }
    }

    @Test
    void plainHttpOnTheLoopbackPortServesS3() {
        URI plain = URI.create("http://127.0.0.1:" + TlsServiceSupport.plainPort(service));
        try (S3Client s3 = TlsServiceSupport.client(plain, null)) {
            roundTrip(s3, "tls-plain");
        }
    }

    @Test
    void plainHttpOnTheHttpsPortIsNotServed() {
        URI wrongScheme = URI.create("http://127.0.0.1:" + StandaloneService.port(service));
        try (S3Client s3 = TlsServiceSupport.client(wrongScheme, null)) {
            assertThrows(Exception.class, s3::listBuckets);
        }
    }

    @Test
    void replacedCertificateIsServedToNewConnectionsWithoutRestart() throws Exception {
        int port = StandaloneService.port(service);
        BigInteger before = ca.servedSerial(port);
        TestCertificates.Issued next = ca.issue("rotated");
        assertNotEquals(before, next.serial());
        next.replace(served);
        long deadline = System.nanoTime() + 60_000_000_000L;
        BigInteger now = before;
        while (!now.equals(next.serial()) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            now = ca.servedSerial(port);
        }
        assertEquals(next.serial(), now, "the replaced certificate was not served within 60 s");
        try (S3Client s3 = TlsServiceSupport.client(TlsServiceSupport.httpsEndpoint(service), ca.trustManagers())) {
            roundTrip(s3, "tls-rotated");
        }
    }

    private static boolean causes(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
