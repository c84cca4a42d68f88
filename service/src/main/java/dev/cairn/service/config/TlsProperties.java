package dev.cairn.service.config;

import static dev.cairn.service.config.CairnProperties.require;

import java.nio.file.Path;

/**
 * HTTPS on the service's port ({@code server.port}), from PEM files that are reloaded when they
 * change. {@code TlsEnvironment} turns these settings into Spring Boot's SSL bundle
 * "cairn".
 */
public class TlsProperties {
    /** The default of {@code cairn.tls.http-address}. */
    public static final String DEFAULT_HTTP_ADDRESS = "127.0.0.1";

    /** The server's certificate chain (PEM), leaf first; setting it turns HTTPS on. */
    private Path certificate;
    /** The private key of the certificate (PEM, PKCS#8 or PKCS#1, EC or RSA). */
    private Path privateKey;
    /** The password of an encrypted private key; unset: the key is not encrypted. Never logged. */
    private String privateKeyPassword;
    /** A port for plain HTTP besides HTTPS, on {@link #httpAddress} only; unset: none. */
    private Integer httpPort;
    /** Where plain HTTP listens; must be a loopback address. */
    private String httpAddress = DEFAULT_HTTP_ADDRESS;

    public boolean isEnabled() {
        return certificate != null;
    }

    public Path getCertificate() {
        return certificate;
    }

    public void setCertificate(Path v) {
        certificate = v;
    }

    public Path getPrivateKey() {
        return privateKey;
    }

    public void setPrivateKey(Path v) {
        privateKey = v;
    }

    public String getPrivateKeyPassword() {
        return privateKeyPassword;
    }

    public void setPrivateKeyPassword(String v) {
        privateKeyPassword = v;
    }

    public Integer getHttpPort() {
        return httpPort;
    }

    public void setHttpPort(Integer v) {
        httpPort = v;
    }

    public String getHttpAddress() {
        return httpAddress;
    }

    public void setHttpAddress(String v) {
        httpAddress = v;
    }

    /** Checks the TLS settings; the files themselves are read and checked by the SSL bundle. */
    public void validate() {
        require((certificate == null) == (privateKey == null),
                "cairn.tls.certificate and cairn.tls.private-key must be set together");
        if (httpPort == null) {
            return;
        }
        require(isEnabled(), "cairn.tls.http-port is plain HTTP besides HTTPS and needs cairn.tls.certificate;"
                + " without TLS the service already speaks plain HTTP on server.port");
        require(httpPort >= 0 && httpPort <= 65535, "cairn.tls.http-port must be in [0, 65535]");
        require(isLoopback(httpAddress), "cairn.tls.http-address must be a loopback address (127.0.0.1, ::1,"
                + " localhost), got '" + httpAddress + "': plain HTTP carries object data in clear text");
    }

    private static boolean isLoopback(String address) {
        if (address == null || address.isBlank()) {
            return false;
        }
        try {
            return java.net.InetAddress.getByName(address).isLoopbackAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "Tls[certificate=" + certificate + ", privateKey=" + privateKey + ", privateKeyPassword="
                + (privateKeyPassword == null ? null : "(hidden)") + ", httpPort=" + httpPort
                + ", httpAddress=" + httpAddress + "]";
    }
}
