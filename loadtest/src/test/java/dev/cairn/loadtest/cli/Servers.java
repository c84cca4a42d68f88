package dev.cairn.loadtest.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/** Starts the real servers the load generator is tested against: Redis and the Cairn service. */
final class Servers {

    static final String ACCESS_KEY = "loadtest-access";
    static final String SECRET_KEY = "loadtest-secret-0123456789";
    /** The service's startup line, printed once it listens, with the port it bound. */
    private static final Pattern CAIRN_SERVING = Pattern.compile("Cairn is serving S3 at https?://[^\\s:]+:(\\d+)");

    private Servers() {
    }

    /** redis-server with no persistence; the test is skipped when Redis is not installed. */
    static ChildProcess redis(Path dir) throws IOException, InterruptedException {
        Path redis = ChildProcess.onPath("redis-server");
        Assumptions.assumeTrue(redis != null, "redis-server is not installed (bin/install-test-deps installs it)");
        return ChildProcess.startOnFreePort("redis-server", port -> List.of(redis.toString(), "--port",
                        Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                        "--daemonize", "no", "--dir", dir.toString()),
                Map.of(), Pattern.compile("Ready to accept connections"), Pattern.compile("Address already in use"),
                dir.resolve("redis.log"), 30);
    }

    /** The Cairn service from its packaged jar, on the embedded engine under {@code dir}, on a port it binds. */
    static ChildProcess cairn(Path dir) throws IOException, InterruptedException {
        Path jar = serviceJar();
        Files.createDirectories(dir);
        return ChildProcess.startReportingPort("cairn service", List.of(ChildProcess.java(), "-Xmx512m",
                        "-XX:+UseSerialGC", "-jar", jar.toString()), Map.of(
                        "SERVER_PORT", "0",
                        "SERVER_ADDRESS", "127.0.0.1",
                        "CAIRN_DATA_DIR", dir.resolve("data").toString(),
                        "CAIRN_AUTH_ACCESS_KEY", ACCESS_KEY,
                        "CAIRN_AUTH_SECRET_KEY", SECRET_KEY),
                CAIRN_SERVING, dir.resolve("cairn.log"), 180);
    }

    private static Path serviceJar() {
        Path here = Path.of("").toAbsolutePath();
        for (Path root : List.of(here.getParent(), here)) {
            if (root == null) {
                continue;
            }
            Path jar = root.resolve("service/target/cairn-service.jar");
            if (Files.isRegularFile(jar)) {
                return jar;
            }
        }
        fail("service/target/cairn-service.jar is missing: build it first (./mvnw -B install -DskipTests)");
        return null;
    }
}
