package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * CORS through boto3, urllib and a real browser (src/test/python/cors_clients.py): headless
 * Chromium on a page served from another 127.0.0.1 port reads and uploads across origins to a
 * bucket with CORS and is blocked by one without. Needs chromium, chromium-driver and the Python
 * packages of {@code bin/install-test-deps}; skipped without them only when not root.
 */
@Tag("integration")
class CorsClientsTest extends ServiceTestSupport {
    private static final Path SCRIPT = Path.of("src/test/python/cors_clients.py");

    @Test
    void boto3PreflightsAndABrowserOnAnotherOrigin() throws Exception {
        String python = venvPython();
        boolean ready = Files.isExecutable(Path.of("/usr/bin/chromium")) && Files.isExecutable(Path.of("/usr/bin/chromedriver"))
                && run(List.of(python, "-c", "import boto3, selenium"), 60) == 0;
        if (!ready) {
            Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                    "chromium, chromium-driver, boto3 or selenium missing (bin/install-test-deps installs them, as root)");
            throw new AssertionError("chromium, chromium-driver, boto3 or selenium missing: run bin/install-test-deps");
        }
        Process p = new ProcessBuilder(python, SCRIPT.toString(), "http://127.0.0.1:" + port, ACCESS_KEY, SECRET_KEY)
                .redirectErrorStream(true).start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS), "cors_clients.py did not finish");
        } finally {
            p.destroyForcibly();
        }
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("{\"ok\": true}"), output);
    }

    /** The tests' virtual environment's python (bin/test-venv), else python3 on the PATH. */
    private static String venvPython() throws Exception {
        Process p = new ProcessBuilder("../bin/test-venv").start();
        String venv = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor(10, TimeUnit.SECONDS);
        Path py = Path.of(venv, "bin", "python3");
        return Files.isExecutable(py) ? py.toString() : "python3";
    }

    private static int run(List<String> command, int seconds) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }
}
