package dev.cairn.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Starts the real service once per test JVM (Spring caches the context across test classes):
 * 127.0.0.1, a free port, a fresh data directory, fixed credentials, small limits so that limit
 * tests stay fast. Each test class gets path-style sync and async SDK clients, closed after it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@AutoConfigureObservability
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "server.address=127.0.0.1",
        "cairn.auth.access-key=" + ServiceTestSupport.ACCESS_KEY,
        "cairn.auth.secret-key=" + ServiceTestSupport.SECRET_KEY,
        "cairn.limits.max-object-size=8MB",
        "cairn.limits.min-part-size=64KB",
        "cairn.limits.max-delete-keys=100",
        "cairn.limits.spool-memory-threshold=32KB",
        "cairn.engine.memtable-size=8MB",
        "cairn.engine.block-cache-size=16MB",
        "cairn.variants.secure-token=" + ServiceTestSupport.VARIANT_TOKEN,
        "cairn.variants.unsigned-preset-buckets=" + ServiceTestSupport.PRESET_BUCKET,
        "logging.level.dev.cairn.service.access=WARN"})
public abstract class ServiceTestSupport {
    public static final String ACCESS_KEY = "AKIDCAIRNTEST0000001";
    public static final String SECRET_KEY = "cairn/test+secret=key0000000000000000000";
    public static final long MAX_OBJECT_SIZE = 8L << 20;
    /** Image variants' secure token, and the bucket whose presets need no signature (docs/variants.md). */
    public static final String VARIANT_TOKEN = "variant-test-token";
    public static final String PRESET_BUCKET = "variants-presets";
    public static final long MIN_PART_SIZE = 64L << 10;
    public static final Path DATA_DIR = createDataDir();
    /** The key file (docs/format/keys.md) the service watches; tests of roles rewrite it. */
    public static final Path KEYS_FILE = createKeysFile();
    /** A key of the initial key file with the metrics role only. */
    public static final String METRICS_KEY = "CAIRNTESTMETRICS";
    public static final String METRICS_SECRET = "metrics-secret-0000000000";
    private static final AtomicInteger BUCKETS = new AtomicInteger();

    @LocalServerPort
    protected int port;
    protected S3Client s3;
    private S3AsyncClient s3Async;

    private static Path createDataDir() {
        try {
            Path dir = Files.createTempDirectory("cairn-service-test");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path createKeysFile() {
        try {
            Path file = DATA_DIR.resolve("keys");
            Files.writeString(file, "CAIRNTESTMETRICS metrics-secret-0000000000 metrics\n");
            Files.setPosixFilePermissions(file, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @DynamicPropertySource
    static void dataDir(DynamicPropertyRegistry registry) {
        registry.add("cairn.data-dir", DATA_DIR::toString);
        registry.add("cairn.auth.keys-file", KEYS_FILE::toString);
        registry.add("cairn.auth.keys-reload-interval", () -> "100ms");
    }

    /** HTTP Basic credentials for the actuator. */
    protected static String basicAuth(String accessKey, String secret) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString(
                (accessKey + ":" + secret).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @BeforeAll
    void openClients() {
        s3 = client(ACCESS_KEY, SECRET_KEY);
    }

    @AfterAll
    void closeClients() {
        s3.close();
        if (s3Async != null) {
            s3Async.close();
        }
    }

    /** The async client, created on first use. */
    protected S3AsyncClient s3Async() {
        if (s3Async == null) {
            s3Async = S3AsyncClient.builder()
                    .endpointOverride(endpoint())
                    .region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                    .forcePathStyle(true)
                    .build();
        }
        return s3Async;
    }

    protected URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    protected S3Client client(String accessKey, String secretKey) {
        return S3Client.builder()
                .endpointOverride(endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .forcePathStyle(true)
                .build();
    }

    /**
     * Waits up to a minute until the service knows the key with this secret: the key file is
     * reloaded on a timer, which a loaded machine runs late. A refusal on the key's role
     * (AccessDenied) counts as known.
     */
    protected void awaitKeyKnown(String accessKey, String secretKey) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        try (S3Client c = client(accessKey, secretKey)) {
            while (true) {
                String code;
                try {
                    c.listBuckets();
                    return;
                } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
                    code = e.awsErrorDetails().errorCode();
                }
                if (!"InvalidAccessKeyId".equals(code) && !"SignatureDoesNotMatch".equals(code)) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(accessKey + " still refused with " + code + " after 60 s");
                }
                Thread.sleep(50);
            }
        }
    }

    /** {@code n} bytes, the same for the same seed. */
    protected static byte[] seededBytes(int n, long seed) {
        byte[] b = new byte[n];
        new java.util.Random(seed).nextBytes(b);
        return b;
    }

    /** A bucket name no other test uses. */
    protected static String uniqueBucket(String stem) {
        return stem + "-" + BUCKETS.incrementAndGet() + "-" + Long.toHexString(System.nanoTime() & 0xFFFFFF);
    }
}
