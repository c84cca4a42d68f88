package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.service.ServiceTestSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * boto3 and the AWS CLI against the running service, through src/test/python/s3_clients.py.
 * Skipped where they are not installed ({@code bin/install-test-deps} installs them).
 */
@Tag("integration")
class PythonClientsTest extends ServiceTestSupport {
    private static final Path SCRIPT = Path.of("src/test/python/s3_clients.py");

    private static boolean succeeds(String... command) {
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

    private void runScript(String mode) throws Exception {
        Process p = new ProcessBuilder(List.of("python3", SCRIPT.toString(), mode, endpoint().toString(), ACCESS_KEY,
                SECRET_KEY, uniqueBucket("py"))).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(240, TimeUnit.SECONDS)) {
                throw new AssertionError("s3_clients.py " + mode + " did not finish");
            }
        } finally {
            p.destroyForcibly();
        }
        System.out.println(output);
        assertEquals(0, p.exitValue(), output);
    }

    @Test
    void boto3() throws Exception {
        Assumptions.assumeTrue(succeeds("python3", "-c", "import boto3"), "boto3 is not installed");
        runScript("boto3");
    }

    @Test
    void awsCli() throws Exception {
        Assumptions.assumeTrue(succeeds("aws", "--version"), "the AWS CLI is not installed");
        runScript("cli");
    }
}
