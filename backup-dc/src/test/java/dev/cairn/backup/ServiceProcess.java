package dev.cairn.backup;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
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
 * The real service as its own process, from the packaged jar (service/target/cairn-service.jar,
 * which the build makes before this module's tests; alone: {@code ./mvnw -o -q -B -DskipTests
 * package -pl service -am}) on 127.0.0.1 and a free port, with one access key. Stopped by
 * {@link #close()}, also when a test fails.
 */
public final class ServiceProcess implements AutoCloseable {
    /** A Spring Boot start took 98 s on this 2-core machine at load 35; the wait is for a condition, so it may be long. */
    private static final int START_SECONDS = 300;

    public static final String ACCESS_KEY = "AKIDCAIRNBACKUPTEST1";
    public static final String SECRET_KEY = "backup/test+secret=key00000000000000000";

    private final Process process;
    private final int port;
    private final Path log;

    private ServiceProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /** A service on {@code workDir/service-data} with {@link #ACCESS_KEY}, logging to {@code workDir/service.log}. */
    public static ServiceProcess start(Path workDir) throws IOException, InterruptedException {
        return launch(workDir.resolve("service-data"), workDir.resolve("service.log"), ACCESS_KEY, SECRET_KEY,
                List.of("--cairn.engine.memtable-size=8MB"));
    }

    /**
     * A service on {@code dataDir} with the given key and a 4 MB memtable (so that a checkpoint
     * soon holds tables), logging beside it; {@code extra}: more of the service's options.
     */
    public static ServiceProcess start(Path dataDir, String access, String secret, String... extra)
            throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("--cairn.engine.memtable-size=4MB"));
        options.addAll(List.of(extra));
        return launch(dataDir, dataDir.resolveSibling(dataDir.getFileName() + ".log"), access, secret, options, false);
    }

    /**
     * A service started as {@code CAIRN_DATA_DIR=dataDir bin/cairn serve} starts it: the jar with
     * the data directory in the environment, nothing created in it beforehand; otherwise as
     * {@link #start(Path, String, String, String...)}.
     */
    public static ServiceProcess serve(Path dataDir, String access, String secret, String... extra)
            throws IOException, InterruptedException {
        List<String> options = new ArrayList<>(List.of("--cairn.engine.memtable-size=4MB"));
        options.addAll(List.of(extra));
        return launch(dataDir, dataDir.resolveSibling(dataDir.getFileName() + ".log"), access, secret, options, true);
    }

    private static ServiceProcess launch(Path data, Path log, String access, String secret, List<String> options)
            throws IOException, InterruptedException {
        return launch(data, log, access, secret, options, false);
    }

    private static ServiceProcess launch(Path data, Path log, String access, String secret, List<String> options,
                                         boolean dataDirInEnvironment) throws IOException, InterruptedException {
        Path jar = repositoryRoot().resolve("service/target/cairn-service.jar");
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build it with ./mvnw -o -q -B -DskipTests package -pl service -am");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        if (!dataDirInEnvironment) {
            Files.createDirectories(data);
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-jar", jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1",
                "--cairn.auth.access-key=" + access, "--cairn.auth.secret-key=" + secret,
                "--logging.level.dev.cairn.service.access=WARN"));
        if (!dataDirInEnvironment) {
            cmd.add("--cairn.data-dir=" + data);
        }
        cmd.addAll(options);
        ProcessBuilder builder = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        if (dataDirInEnvironment) {
            builder.environment().put("CAIRN_DATA_DIR", data.toString());
        }
        Process p = builder.start();
        ServiceProcess service = new ServiceProcess(p, port, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("the service exited (" + p.exitValue() + "): " + Files.readString(log));
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return service;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        service.close();
        throw new IllegalStateException("the service did not listen within " + START_SECONDS + " s: " + Files.readString(log));
    }

    public static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("service")) && Files.isDirectory(p.resolve("backup-dc"))) {
                return p;
            }
        }
        throw new IllegalStateException("the repository root is not above " + Path.of("").toAbsolutePath());
    }

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    /** The service's process id (to read its CPU time). */
    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    /** An AWS SDK client of this service (path style), signing with the given key. */
    public S3Client client(String accessKey, String secretKey) {
        return S3Client.builder().endpointOverride(URI.create(endpoint())).region(Region.US_EAST_1)
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
