package dev.cairn.service;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The service started and stopped by a test itself (restarts, shutdown), apart from the shared
 * context of {@link ServiceTestSupport}: 127.0.0.1, a free port, the given data directory.
 */
public final class StandaloneService {
    private StandaloneService() {
    }

    /** Starts the service on {@code dataDir} with {@code extra} properties on top of the test defaults. */
    public static ConfigurableApplicationContext start(Path dataDir, Map<String, String> extra) {
        Map<String, Object> props = new HashMap<>(Map.of(
                "server.port", "0",
                "server.address", "127.0.0.1",
                "cairn.data-dir", dataDir.toString(),
                "cairn.engine.memtable-size", "4MB",
                "logging.level.dev.cairn.service.access", "WARN"));
        props.putAll(extra);
        // As arguments: default properties rank below application.yaml, whose server.port is fixed.
        String[] args = props.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue()).toArray(String[]::new);
        return new SpringApplicationBuilder(CairnApplication.class).run(args);
    }

    public static int port(ConfigurableApplicationContext ctx) {
        return ((WebServerApplicationContext) ctx).getWebServer().getPort();
    }

    /** A path-style SDK client of the running service. */
    public static S3Client client(ConfigurableApplicationContext ctx, String access, String secret) {
        return S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + port(ctx)))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(access, secret)))
                .forcePathStyle(true).build();
    }
}
