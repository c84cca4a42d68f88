package dev.cairn.service.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.StandaloneService;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * curl and boto3 against the service over HTTPS, each trusting the test authority by its own
 * means ({@code --cacert}, {@code verify=}); without it both refuse the server.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsClientsTest {
    @TempDir
    static Path tmp;
    private TestCertificates ca;
    private ConfigurableApplicationContext service;
    private String endpoint;

    @BeforeAll
    void start() throws Exception {
        ca = TestCertificates.authority(tmp);
        service = TlsServiceSupport.start(tmp.resolve("data"), ca.issue("server"), Map.of());
        endpoint = "https://127.0.0.1:" + StandaloneService.port(service);
    }

    @AfterAll
    void stop() {
        if (service != null) {
            service.close();
        }
    }

    private record Result(int exit, String output) {
    }

    private static Result run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                throw new AssertionError(command.get(0) + " did not finish");
            }
            return new Result(p.exitValue(), out);
        } finally {
            p.destroyForcibly();
        }
    }

    private List<String> curl(String... args) {
        List<String> c = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30", "--aws-sigv4", "aws:amz:us-east-1:s3",
                "--user", TlsServiceSupport.ACCESS_KEY + ":" + TlsServiceSupport.SECRET_KEY,
                "-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD"));
        c.addAll(List.of(args));
        return c;
    }

    @Test
    void curlWithTheAuthorityWritesAndReads() throws Exception {
        Path body = tmp.resolve("body.bin");
        Files.write(body, "served over TLS".getBytes(StandardCharsets.UTF_8));
        String ca = this.ca.caFile().toString();
        Result bucket = run(curl("--cacert", ca, "-f", "-X", "PUT", endpoint + "/curl-tls"));
        assertEquals(0, bucket.exit(), bucket.output());
        Result put = run(curl("--cacert", ca, "-f", "-T", body.toString(), endpoint + "/curl-tls/k.txt"));
        assertEquals(0, put.exit(), put.output());
        Result get = run(curl("--cacert", ca, "-f", endpoint + "/curl-tls/k.txt"));
        assertEquals(new Result(0, "served over TLS"), get);
    }

    @Test
    void curlWithoutTheAuthorityRefusesTheServer() throws Exception {
        Result r = run(curl(endpoint + "/"));
        assertEquals(60, r.exit(), "curl's exit code for an unverifiable peer certificate: " + r.output());
    }

    private String python() throws Exception {
        Result venv = run(List.of("../bin/test-venv"));
        Path python = Path.of(venv.output().trim(), "bin", "python");
        Assumptions.assumeTrue(Files.isExecutable(python), "no test venv (bin/install-test-deps creates it)");
        return python.toString();
    }

    private static final String BOTO3 = """
            import sys, boto3, botocore
            endpoint, key, secret, verify = sys.argv[1:5]
            s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=key, aws_secret_access_key=secret,
                              region_name="us-east-1", verify=(False if verify == "off" else verify if verify != "default" else None),
                              config=botocore.config.Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1}))
            try:
                s3.create_bucket(Bucket="boto3-tls")
                s3.put_object(Bucket="boto3-tls", Key="k", Body=b"x" * 20480)
                assert s3.get_object(Bucket="boto3-tls", Key="k")["Body"].read() == b"x" * 20480
                print("ok")
            except botocore.exceptions.SSLError as e:
                print("ssl-error", e)
                sys.exit(3)
            """;

    private Result boto3(String verify) throws Exception {
        Path script = tmp.resolve("tls_boto3.py");
        Files.writeString(script, BOTO3);
        return run(List.of(python(), script.toString(), endpoint, TlsServiceSupport.ACCESS_KEY,
                TlsServiceSupport.SECRET_KEY, verify));
    }

    @Test
    void boto3WithTheAuthorityWritesAndReads() throws Exception {
        Result r = boto3(ca.caFile().toString());
        assertEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("ok"), r.output());
    }

    @Test
    void boto3WithoutTheAuthorityRefusesTheServer() throws Exception {
        Result r = boto3("default");
        assertNotEquals(0, r.exit(), r.output());
        assertTrue(r.output().contains("ssl-error"), r.output());
    }

}
