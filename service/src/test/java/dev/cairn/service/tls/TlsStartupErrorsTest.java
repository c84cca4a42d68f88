package dev.cairn.service.tls;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/** Settings the service refuses to start with, each with a message that says what is wrong. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsStartupErrorsTest {
    @TempDir
    static Path tmp;
    private TestCertificates.Issued first;
    private TestCertificates.Issued second;

    @BeforeAll
    void certificates() throws Exception {
        TestCertificates ca = TestCertificates.authority(tmp);
        first = ca.issue("first");
        second = ca.issue("second");
    }

    private void assertRefused(TestCertificates.Issued issued, Map<String, String> extra, String expected) {
        Throwable e = assertThrows(Throwable.class, () -> {
            ConfigurableApplicationContext ctx = TlsServiceSupport.start(tmp.resolve("data"), issued, extra);
            ctx.close();
        });
        StringBuilder messages = new StringBuilder();
        for (Throwable c = e; c != null; c = c.getCause()) {
            messages.append(c).append('\n');
        }
        assertTrue(messages.toString().contains(expected), () -> "expected '" + expected + "' in:\n" + messages);
    }

    @Test
    void plainHttpOnANonLoopbackAddressIsRefused() {
        assertRefused(first, Map.of("cairn.tls.http-port", "0", "cairn.tls.http-address", "0.0.0.0"),
                "cairn.tls.http-address must be a loopback address");
    }

    @Test
    void keyOfAnotherCertificateIsRefused() {
        TestCertificates.Issued mismatched = new TestCertificates.Issued(first.certificate(), second.privateKey(), first.serial());
        assertRefused(mismatched, Map.of(), "Private key in keystore matches none of the certificates in the chain");
    }

    @Test
    void missingCertificateFileIsRefused() {
        TestCertificates.Issued missing = new TestCertificates.Issued(tmp.resolve("absent.pem"), first.privateKey(), first.serial());
        assertRefused(missing, Map.of(), "absent.pem");
    }

    @Test
    void plainHttpPortWithoutTlsIsRefused() {
        Throwable e = assertThrows(Throwable.class, () -> dev.cairn.service.StandaloneService.start(tmp.resolve("plain"),
                Map.of("cairn.tls.http-port", "0")).close());
        assertTrue(String.valueOf(e.getMessage()).contains("cairn.tls.http-port")
                || String.valueOf(e.getCause()).contains("cairn.tls.http-port"), () -> "unclear: " + e);
    }
}
