package dev.cairn.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;

/**
 * {@code disk_free_bytes} and {@code disk_total_bytes} measure the file system of the data
 * directory, not the working directory's: the service runs with its data directory on another
 * file system than the one it was started in.
 */
@Tag("integration")
class DiskSpaceMetricsTest {
    private static final String KEY = "AKIDDISKSPACE0000001";
    private static final String SECRET = "disk-space-test-secret-0000000000";
    /** Free space moves while other programs write; the two file systems differ by far more. */
    private static final long SLACK = 256L << 20;
    private Path dataDir;

    @BeforeEach
    void dataDirOnAnotherFileSystem() throws IOException {
        FileStore cwd = Files.getFileStore(Path.of("").toAbsolutePath());
        Optional<Path> elsewhere = List.of(Path.of("/dev/shm"), Path.of(System.getProperty("java.io.tmpdir"))).stream()
                .filter(p -> Files.isDirectory(p) && Files.isWritable(p) && !sameStore(p, cwd)).findFirst();
        Assumptions.assumeTrue(elsewhere.isPresent(), "no writable file system other than the working directory's");
        dataDir = Files.createTempDirectory(elsewhere.get(), "cairn-disk-space");
        Assumptions.assumeTrue(Math.abs(cwd.getUsableSpace() - Files.getFileStore(dataDir).getUsableSpace()) > 4 * SLACK,
                "the two file systems have about the same free space");
    }

    @AfterEach
    void removeDataDir() throws IOException {
        if (dataDir != null) {
            FileSystemUtils.deleteRecursively(dataDir);
        }
    }

    private static boolean sameStore(Path p, FileStore store) {
        try {
            return Files.getFileStore(p).equals(store);
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void diskFreeIsTheDataDirectorysFileSystem() throws Exception {
        try (ConfigurableApplicationContext ctx = StandaloneService.start(dataDir, Map.of(
                "cairn.auth.access-key", KEY, "cairn.auth.secret-key", SECRET))) {
            String auth = "Basic " + Base64.getEncoder().encodeToString((KEY + ":" + SECRET).getBytes(StandardCharsets.UTF_8));
            HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + StandaloneService.port(ctx) + "/actuator/prometheus"))
                    .header("Authorization", auth).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, scrape.statusCode());
            FileStore store = Files.getFileStore(dataDir);
            long usable = store.getUsableSpace();
            double free = gauge(scrape.body(), "disk_free_bytes", dataDir.toAbsolutePath().toString());
            assertTrue(Math.abs(free - usable) < SLACK,
                    () -> "disk_free_bytes " + free + ", the data directory's file system has " + usable);
            assertEquals(store.getTotalSpace(), gauge(scrape.body(), "disk_total_bytes", dataDir.toAbsolutePath().toString()));
        }
    }

    /** The value of {@code name} with the tag {@code path="path"} in a Prometheus scrape. */
    private static double gauge(String scrape, String name, String path) {
        Matcher m = Pattern.compile("(?m)^" + name + "\\{([^}]*)\\} (\\S+)$").matcher(scrape);
        StringBuilder seen = new StringBuilder();
        while (m.find()) {
            if (m.group(1).contains("path=\"" + path + "\"")) {
                return Double.parseDouble(m.group(2));
            }
            seen.append(m.group()).append('\n');
        }
        throw new AssertionError("no " + name + " for " + path + "; the scrape has:\n" + seen);
    }
}
