package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import org.junit.jupiter.api.Tag;

/**
 * A start with no credentials configured generates a pair (owner-only file) and keeps it; a
 * shutdown closes the engine cleanly, so a restart on the same data directory finds everything.
 */
@Tag("integration")
class LifecycleTest {
    @TempDir
    Path dataDir;

    private ConfigurableApplicationContext start() {
        return StandaloneService.start(dataDir, Map.of());
    }

    private static S3Client client(ConfigurableApplicationContext ctx, String access, String secret) {
        return StandaloneService.client(ctx, access, secret);
    }

    @Test
    void generatedCredentialsAndDataSurviveARestart() throws Exception {
        String access;
        String secret;
        try (ConfigurableApplicationContext first = start()) {
            Path file = dataDir.resolve(Credentials.GENERATED_FILE);
            assertTrue(Files.exists(file));
            assertEquals(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE),
                    Files.getPosixFilePermissions(file));
            Properties p = new Properties();
            try (InputStream in = Files.newInputStream(file)) {
                p.load(in);
            }
            access = p.stringPropertyNames().iterator().next();
            secret = p.getProperty(access);
            try (S3Client s3 = client(first, access, secret)) {
                s3.createBucket(b -> b.bucket("kept"));
                s3.putObject(b -> b.bucket("kept").key("k"), RequestBody.fromString("survives"));
            }
        }
        try (ConfigurableApplicationContext second = start(); S3Client s3 = client(second, access, secret)) {
            assertEquals("survives", s3.getObjectAsBytes(b -> b.bucket("kept").key("k")).asUtf8String());
        }
    }
}
