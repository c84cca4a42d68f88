package dev.cairn.service.tls;

import dev.cairn.service.ServiceTestSupport;
import dev.cairn.service.StandaloneService;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.net.ssl.TrustManager;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.NetworkConnector;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.boot.web.embedded.jetty.JettyWebServer;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/** The service started with HTTPS from {@link TestCertificates}, and clients of it. */
final class TlsServiceSupport {
    static final String ACCESS_KEY = ServiceTestSupport.ACCESS_KEY;
    static final String SECRET_KEY = ServiceTestSupport.SECRET_KEY;

    private TlsServiceSupport() {
    }

    /** Starts the service with HTTPS from {@code issued}, and {@code extra} properties. */
    static ConfigurableApplicationContext start(Path dataDir, TestCertificates.Issued issued, Map<String, String> extra) {
        Map<String, String> props = new HashMap<>(Map.of(
                "cairn.tls.certificate", issued.certificate().toString(),
                "cairn.tls.private-key", issued.privateKey().toString(),
                "cairn.auth.access-key", ACCESS_KEY,
                "cairn.auth.secret-key", SECRET_KEY,
                "spring.ssl.bundle.watch.file.quiet-period", "200ms"));
        props.putAll(extra);
        return StandaloneService.start(dataDir, props);
    }

    static URI httpsEndpoint(ConfigurableApplicationContext ctx) {
        return URI.create("https://127.0.0.1:" + StandaloneService.port(ctx));
    }

    /** The port of the plain HTTP connector ({@code cairn.tls.http-port}). */
    static int plainPort(ConfigurableApplicationContext ctx) {
        JettyWebServer web = (JettyWebServer) ((WebServerApplicationContext) ctx).getWebServer();
        for (Connector c : web.getServer().getConnectors()) {
            if ("plain-loopback".equals(c.getName())) {
                return ((NetworkConnector) c).getLocalPort();
            }
        }
        throw new AssertionError("no plain HTTP connector");
    }

    /** A path-style client of {@code endpoint} that trusts only {@code trust} (null: the JDK's default trust). */
    static S3Client client(URI endpoint, TrustManager[] trust) {
        S3ClientBuilder b = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .forcePathStyle(true);
        if (trust != null) {
            b.httpClient(ApacheHttpClient.builder().tlsTrustManagersProvider(() -> trust).build());
        }
        return b.build();
    }
}
