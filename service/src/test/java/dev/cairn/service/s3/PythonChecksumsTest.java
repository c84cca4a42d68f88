package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.service.ServiceTestSupport;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * CRC64NVME through boto3 and the AWS CLI (src/test/python/s3_checksums.py): the Java SDK needs
 * the AWS CRT for it, botocore needs awscrt. Skipped where those are not installed.
 */
@Tag("integration")
class PythonChecksumsTest extends ServiceTestSupport {

    @Test
    void crc64nvmeAsBotocoreComputesIt() throws Exception {
        Process probe = new ProcessBuilder("python3", "-c", "import boto3, awscrt").redirectErrorStream(true).start();
        probe.getInputStream().readAllBytes();
        Assumptions.assumeTrue(probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0,
                "boto3 with awscrt is not installed");
        Process p = new ProcessBuilder(List.of("python3", "src/test/python/s3_checksums.py", endpoint().toString(),
                ACCESS_KEY, SECRET_KEY, uniqueBucket("pycrc"))).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(240, TimeUnit.SECONDS)) {
                throw new AssertionError("s3_checksums.py did not finish");
            }
        } finally {
            p.destroyForcibly();
        }
        System.out.println(output);
        assertEquals(0, p.exitValue(), output);
    }
}
