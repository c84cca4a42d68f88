package dev.cairn.service.crash;

import dev.cairn.service.CairnApplication;
import dev.cairn.service.ServiceTestSupport;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The real service in a child JVM on a data directory, so that a test can kill it with SIGKILL
 * and start it again: 127.0.0.1, a port the service binds itself (port 0; it prints the port it
 * got), the test credentials. Always {@link #close()} it.
 */
public final class ServiceProcess implements AutoCloseable {
    /** The service's startup line on standard output ({@code StartupBanner}), printed once it listens. */
    private static final Pattern SERVING = Pattern.compile("Cairn is serving S3 at https?://[^\\s:]+:(\\d+)");

    private final Process process;
    private final int port;

    private ServiceProcess(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts the service and waits until it listens (at most two minutes). It binds port 0 itself
     * and reports the port it got: a free port picked here could be taken by another process
     * before the service binds it, and a probe would then find that process listening.
     */
    public static ServiceProcess start(Path dataDir, Path log, Map<String, String> properties) throws Exception {
        long logStart = Files.exists(log) ? Files.size(log) : 0;
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx512m",
                "-cp", System.getProperty("java.class.path"), CairnApplication.class.getName(),
                "--server.port=0", "--server.address=127.0.0.1", "--cairn.data-dir=" + dataDir,
                "--cairn.auth.access-key=" + ServiceTestSupport.ACCESS_KEY,
                "--cairn.auth.secret-key=" + ServiceTestSupport.SECRET_KEY,
                "--logging.level.dev.cairn.service.access=WARN"));
        properties.forEach((k, v) -> command.add("--" + k + "=" + v));
        Process p = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            Matcher serving = SERVING.matcher(written(log, logStart));
            if (serving.find()) {
                return new ServiceProcess(p, Integer.parseInt(serving.group(1)));
            }
            if (!p.isAlive()) {
                throw new IllegalStateException("the service exited with " + p.exitValue() + "; see " + log);
            }
            Thread.sleep(200);
        }
        p.destroyForcibly();
        p.waitFor(30, TimeUnit.SECONDS);
        throw new IllegalStateException("the service did not start in two minutes; see " + log);
    }

    /** What was appended to {@code log} from {@code offset} on. */
    private static String written(Path log, long offset) throws IOException {
        if (!Files.exists(log)) {
            return "";
        }
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            byte[] b = new byte[(int) Math.max(0, f.length() - offset)];
            f.seek(offset);
            f.readFully(b);
            return new String(b, StandardCharsets.UTF_8);
        }
    }

    public int port() {
        return port;
    }

    /** A path-style client that does not retry: a request the kill interrupts fails at once. */
    public S3Client client() {
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
