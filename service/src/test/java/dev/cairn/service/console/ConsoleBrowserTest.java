package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.CairnApplication;
import java.awt.Color;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Assumptions;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The console in a real browser: Debian's Chromium, headless, driven by Selenium from
 * src/test/python/console_browser.py against the real service. Two keys: an admin and a
 * reader with the read-only role from a key file. A newer version of one image is uploaded
 * into the bucket once versioning is on, to act on the old one. A backup job is configured that
 * has not run yet. Pages are also laid out 420 px wide, and must log no error.
 * Screenshots land in target/console-screenshots; axe-core checks each page.
 * Needs chromium, chromium-driver and the Python packages of {@code bin/install-test-deps};
 * skipped without them only when not root (as root, run that script).
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserTest {
    static final String ADMIN = "CONSOLEADMIN000001";
    static final String ADMIN_SECRET = "admin/secret+console0000000000000000000";
    static final String READER = "CONSOLEREADER00001";
    static final String READER_SECRET = "reader/secret+console000000000000000000";
    private static final Path SCRIPT = Path.of("src/test/python/console_browser.py");
    private static final Path SHOTS = Path.of("target/console-screenshots");

    @TempDir
    static Path dir;
    private ConfigurableApplicationContext service;
    private String python;

    @BeforeAll
    void start() throws IOException {
        python = venvPython();
        boolean ready = Files.isExecutable(Path.of("/usr/bin/chromium")) && Files.isExecutable(Path.of("/usr/bin/chromedriver"))
                && succeeds(python, "-c", "import selenium, axe_selenium_python");
        if (!ready) {
            boolean root = "root".equals(System.getProperty("user.name"));
            Assumptions.assumeTrue(root, "chromium, chromium-driver or the Python selenium/axe packages are missing"
                    + " (bin/install-test-deps installs them, as root)");
            throw new AssertionError("chromium, chromium-driver or Python selenium/axe-selenium-python missing:"
                    + " run bin/install-test-deps");
        }
        Path credentials = dir.resolve("credentials.properties");
        Files.writeString(credentials, ADMIN + "=" + ADMIN_SECRET + "\n");
        Path keys = dir.resolve("keys");
        Files.writeString(keys, READER + " " + READER_SECRET + " read-only\n");
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
        // A backup job that has not run yet: no metrics file, no archive, both where they will be.
        Path backup = Files.createDirectories(dir.resolve("backup"));
        service = new SpringApplicationBuilder(CairnApplication.class).run(
                "--server.port=0", "--server.address=127.0.0.1", "--cairn.data-dir=" + dir.resolve("data"),
                "--cairn.auth.credentials-file=" + credentials, "--cairn.auth.keys-file=" + keys, "--cairn.engine.memtable-size=4MB",
                "--cairn.console.backup-metrics-file=" + backup.resolve("metrics.prom"),
                "--cairn.console.backup-archive=dir:" + backup.resolve("archive"),
                "--logging.level.dev.cairn.service.access=WARN");
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void signInUploadBrowseShareDeleteSignOutAndReaderLimits() throws Exception {
        Path images = Files.createDirectories(dir.resolve("images"));
        writeImage(images.resolve("a-sunrise.png"), "png", new Color(230, 120, 30), new Color(40, 40, 160));
        writeImage(images.resolve("b-forest.jpg"), "jpeg", new Color(20, 110, 40), new Color(200, 230, 200));
        writeImage(images.resolve("c-sea.gif"), "gif", new Color(10, 60, 160), new Color(140, 220, 250));
        Path newVersion = Files.createDirectories(dir.resolve("new-version")).resolve("b-forest.jpg");
        writeImage(newVersion, "jpeg", new Color(150, 60, 20), new Color(250, 210, 120));
        int port = ((WebServerApplicationContext) service).getWebServer().getPort();
        Files.createDirectories(SHOTS);
        try (var old = Files.newDirectoryStream(SHOTS, "*.png")) {
            for (Path shot : old) {
                Files.delete(shot);
            }
        }
        List<String> command = new ArrayList<>(List.of(python, SCRIPT.toString(), "http://127.0.0.1:" + port, ADMIN,
                ADMIN_SECRET, READER, READER_SECRET, images.toString(), SHOTS.toString(), newVersion.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(300, TimeUnit.SECONDS), "console_browser.py did not finish");
        } finally {
            p.destroyForcibly();
        }
        System.out.println(output);
        assertEquals(0, p.exitValue(), output);
        assertTrue(output.contains("\"ok\": true"), output);
    }

    static void writeImage(Path file, String format, Color from, Color to) throws IOException {
        BufferedImage image = new BufferedImage(640, 420, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setPaint(new GradientPaint(0, 0, from, 640, 420, to));
        g.fillRect(0, 0, 640, 420);
        g.setColor(Color.WHITE);
        g.fillOval(220, 110, 200, 200);
        g.dispose();
        assertTrue(ImageIO.write(image, format, file.toFile()), "no ImageIO writer for " + format);
    }

    /** The tests' virtual environment's python (bin/test-venv), else python3 on the PATH. */
    static String venvPython() {
        try {
            Process p = new ProcessBuilder("../bin/test-venv").start();
            String venv = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            p.waitFor(10, TimeUnit.SECONDS);
            Path py = Path.of(venv, "bin", "python3");
            if (Files.isExecutable(py)) {
                return py.toString();
            }
        } catch (IOException e) {
            // no venv script: fall back to the PATH
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "python3";
    }

    static boolean succeeds(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
