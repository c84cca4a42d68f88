package dev.cairn.backup.source.embedded;

import java.io.IOException;
import java.net.URI;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The real service, started as its own process from the built jar (service/target/cairn-service.jar,
 * which the build makes before this module's tests) on 127.0.0.1 and a free port, stopped by
 * {@link #close()}.
 */
final class ServiceProcess implements AutoCloseable {
    /** A Spring Boot start took 98 s on this 2-core machine at load 35; the wait is for a condition, so it may be long. */
    private static final int START_SECONDS = 300;

    final int port;
    private final Process process;
    final Path log;

    private ServiceProcess(int port, Process process, Path log) {
        this.port = port;
        this.process = process;
        this.log = log;
    }

    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("service")) && Files.isDirectory(p.resolve("backup-dc"))) {
                return p;
            }
        }
        throw new IllegalStateException("the repository root is not above " + Path.of("").toAbsolutePath());
    }

    static ServiceProcess start(Path dataDir, String access, String secret, String... extra) throws Exception {
        Path jar = repositoryRoot().resolve("service/target/cairn-service.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build the service first (./mvnw -o package -pl service -am)");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-jar", jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1",
                "--cairn.data-dir=" + dataDir, "--cairn.auth.access-key=" + access, "--cairn.auth.secret-key=" + secret,
                "--cairn.engine.memtable-size=4MB", "--logging.level.dev.cairn.service.access=WARN"));
        cmd.addAll(List.of(extra));
        Files.createDirectories(dataDir);
        Path log = dataDir.resolveSibling(dataDir.getFileName() + ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServiceProcess service = new ServiceProcess(port, p, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("the service exited (" + p.exitValue() + "):\n" + Files.readString(log));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return service;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        service.close();
        throw new IllegalStateException("the service did not listen within " + START_SECONDS + " s:\n" + Files.readString(log));
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    /** An AWS SDK client of this service (path style), signing with the given key. */
    S3Client client(String accessKey, String secretKey) {
        return S3Client.builder().endpointOverride(URI.create(url())).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey)))
                .forcePathStyle(true).build();
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
