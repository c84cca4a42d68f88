package dev.cairn.service.crash;

import dev.cairn.service.CairnApplication;
import dev.cairn.service.ServiceTestSupport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The real service in a child JVM on a data directory, so that a test can kill it with SIGKILL
 * and start it again: 127.0.0.1, a free port, the test credentials. Always {@link #close()} it.
 */
final class ServiceProcess implements AutoCloseable {
    private final Process process;
    private final int port;

    private ServiceProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts the service and waits until it accepts connections (at most two minutes). */
    static ServiceProcess start(Path dataDir, Path log, Map<String, String> properties) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", System.getProperty("java.class.path"), CairnApplication.class.getName(),
                "--server.port=" + port, "--server.address=127.0.0.1", "--cairn.data-dir=" + dataDir,
                "--cairn.auth.access-key=" + ServiceTestSupport.ACCESS_KEY,
                "--cairn.auth.secret-key=" + ServiceTestSupport.SECRET_KEY,
                "--logging.level.dev.cairn.service.access=WARN"));
        properties.forEach((k, v) -> command.add("--" + k + "=" + v));
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        ServiceProcess service = new ServiceProcess(p, port);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("the service exited with " + p.exitValue() + "; see " + log);
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return service;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        service.close();
        throw new IllegalStateException("the service did not start in two minutes; see " + log);
    }

    /** A path-style client that does not retry: a request the kill interrupts fails at once. */
    S3Client client() {
        return S3Client.builder().endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(ServiceTestSupport.ACCESS_KEY, ServiceTestSupport.SECRET_KEY)))
                .overrideConfiguration(ClientOverrideConfiguration.builder().retryPolicy(RetryPolicy.none())
                        .apiCallTimeout(Duration.ofSeconds(60)).build())
                .forcePathStyle(true).build();
    }

    /** SIGKILL from outside, as an operator's {@code kill -9} or the OOM killer would. */
    void kill9() throws Exception {
        new ProcessBuilder("kill", "-9", String.valueOf(process.pid())).inheritIO().start().waitFor();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Stops the service gracefully (SIGTERM), then forcibly if it lingers. */
    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
