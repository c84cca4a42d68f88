package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.service.ServiceTestSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * rclone and s3cmd against the running service through their common operations (mkdir, copy,
 * sync, check, lsjson, server-side copy, multipart, cleanup, purge; mb, put, sync, du, info, cp,
 * mv, setacl, signurl, multipart, rb), through src/test/python/sync_clients.py. Skipped where a
 * tool is not installed ({@code bin/install-test-deps} installs both).
 */
@Tag("integration")
class SyncClientsTest extends ServiceTestSupport {

    private static boolean installed(String tool) {
        try {
            Process p = new ProcessBuilder(tool, "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void drive(String tool) throws Exception {
        Assumptions.assumeTrue(installed(tool), tool + " is not installed");
        Process p = new ProcessBuilder(List.of("python3", "src/test/python/sync_clients.py", tool, endpoint().toString(),
                ACCESS_KEY, SECRET_KEY, uniqueBucket(tool))).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                throw new AssertionError("sync_clients.py " + tool + " did not finish");
            }
        } finally {
            p.destroyForcibly();
        }
        System.out.println(output);
        assertEquals(0, p.exitValue(), output);
    }

    @Test
    void rclone() throws Exception {
        drive("rclone");
    }

    @Test
    void s3cmd() throws Exception {
        drive("s3cmd");
    }
}
