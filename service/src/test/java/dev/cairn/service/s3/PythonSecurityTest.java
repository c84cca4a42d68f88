package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.service.ServiceTestSupport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** boto3 against keys with roles and object ACLs, through src/test/python/s3_security.py. */
@Tag("integration")
class PythonSecurityTest extends ServiceTestSupport {

    @Test
    void boto3() throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import boto3").redirectErrorStream(true).start();
        Assumptions.assumeTrue(probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0, "boto3 is not installed");
        String bucket = uniqueBucket("pysec");
        java.nio.file.Path tmp = KEYS_FILE.resolveSibling("keys.py.tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, METRICS_KEY + " " + METRICS_SECRET + " metrics\nPYREADER py-reader-secret-00 read-only:"
                + bucket + "\n");
        Files.move(tmp, KEYS_FILE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        awaitKeyKnown("PYREADER", "py-reader-secret-00");
        Process p = new ProcessBuilder(List.of("python3", "src/test/python/s3_security.py", endpoint().toString(),
                ACCESS_KEY, SECRET_KEY, "PYREADER", "py-reader-secret-00", METRICS_KEY, METRICS_SECRET, bucket))
                .redirectErrorStream(true).start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(240, TimeUnit.SECONDS)) {
                throw new AssertionError("s3_security.py did not finish");
            }
        } finally {
            p.destroyForcibly();
            Files.writeString(tmp, METRICS_KEY + " " + METRICS_SECRET + " metrics\n");
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
            Files.move(tmp, KEYS_FILE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        System.out.println(output);
        assertEquals(0, p.exitValue(), output);
    }
}
