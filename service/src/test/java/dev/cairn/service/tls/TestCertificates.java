package dev.cairn.service.tls;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;

/**
 * A test certificate authority and server certificates signed by it, made with the openssl
 * command line in a directory of the test's: {@code ca.pem}, and per server certificate a chain
 * file and a PKCS#8 key file. Every certificate names localhost, *.localhost and 127.0.0.1.
 */
final class TestCertificates {
    private static final AtomicLong SERIALS = new AtomicLong(System.currentTimeMillis());
    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /** Creates the authority in {@code dir}. */
    static TestCertificates authority(Path dir) throws IOException {
        TestCertificates ca = new TestCertificates(dir);
        ca.openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Cairn Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign");
        return ca;
    }

    Path caFile() {
        return dir.resolve("ca.pem");
    }

    /** A new key and a certificate for it signed by this authority; returns its serial. */
    Issued issue(String name) throws IOException {
        BigInteger serial = BigInteger.valueOf(SERIALS.incrementAndGet());
        Files.writeString(dir.resolve(name + ".ext"), """
                subjectAltName=DNS:localhost,DNS:*.localhost,IP:127.0.0.1
                extendedKeyUsage=serverAuth
                basicConstraints=CA:FALSE
                """);
        openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=localhost");
        openssl("x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-set_serial", "0x" + serial.toString(16), "-days", "2", "-out", name + ".pem",
                "-extfile", name + ".ext");
        return new Issued(dir.resolve(name + ".pem"), dir.resolve(name + ".key"), serial);
    }

    record Issued(Path certificate, Path privateKey, BigInteger serial) {
        /** Puts this certificate and key in place of {@code target}'s, each file by an atomic rename. */
        void replace(Issued target) throws IOException {
            Path cert = Files.copy(certificate, target.certificate.resolveSibling(".next-cert"),
                    StandardCopyOption.REPLACE_EXISTING);
            Path key = Files.copy(privateKey, target.privateKey.resolveSibling(".next-key"),
                    StandardCopyOption.REPLACE_EXISTING);
            Files.move(key, target.privateKey, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Files.move(cert, target.certificate, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Trust managers that trust this authority only. */
    TrustManager[] trustManagers() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(caFile())) {
            trust.setCertificateEntry("cairn-test-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return tmf.getTrustManagers();
    }

    /** The serial of the certificate a new TLS connection to 127.0.0.1:{@code port} is served. */
    BigInteger servedSerial(int port) throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, trustManagers(), null);
        try (SSLSocket socket = (SSLSocket) ctx.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            socket.startHandshake();
            return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
        }
    }

    private void openssl(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        try {
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IOException("openssl " + String.join(" ", args) + " failed:\n" + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        } finally {
            p.destroyForcibly();
        }
    }
}
