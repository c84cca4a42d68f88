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

/** Signature Version 2 clients (boto3 with signature_version=s3, AWS CLI v1 s3 presign) against
 * keys with roles, through src/test/python/s3_sigv2.py. */
@Tag("integration")
class SignatureV2ClientsTest extends ServiceTestSupport {

    @Test
    void boto3AndAwsCliV1() throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import boto3").redirectErrorStream(true).start();
        Assumptions.assumeTrue(probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0, "boto3 is not installed");
        String bucket = uniqueBucket("sigv2");
        java.nio.file.Path tmp = KEYS_FILE.resolveSibling("keys.v2.tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, METRICS_KEY + " " + METRICS_SECRET + " metrics\nV2READER v2-reader-secret-00 read-only:"
                + bucket + "\n");
        Files.move(tmp, KEYS_FILE, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        awaitKeyKnown("V2READER", "v2-reader-secret-00");
        Process p = new ProcessBuilder(List.of("python3", "src/test/python/s3_sigv2.py", endpoint().toString(),
                ACCESS_KEY, SECRET_KEY, "V2READER", "v2-reader-secret-00", bucket))
                .redirectErrorStream(true).start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(240, TimeUnit.SECONDS)) {
                throw new AssertionError("s3_sigv2.py did not finish");
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
