package dev.cairn.backup;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Cairn service as a separate process (the packaged jar, built by
 * {@code ./mvnw -o -q -B -DskipTests package -pl service -am}) on 127.0.0.1, a free port and a
 * fresh data directory, with one access key. Stopped by {@link #close()}, also when a test fails.
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

    public static ServiceProcess start(Path workDir) throws IOException, InterruptedException {
        Path jar = Path.of("..", "service", "target", "cairn-service.jar").toAbsolutePath().normalize();
        if (!Files.exists(jar)) {
            throw new IllegalStateException(jar + " is missing: build it with ./mvnw -o -q -B -DskipTests package -pl service -am");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        Path data = Files.createDirectories(workDir.resolve("service-data"));
        Path log = workDir.resolve("service.log");
        Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-jar", jar.toString(), "--server.port=" + port, "--server.address=127.0.0.1",
                "--cairn.data-dir=" + data, "--cairn.auth.access-key=" + ACCESS_KEY, "--cairn.auth.secret-key=" + SECRET_KEY,
                "--cairn.engine.memtable-size=8MB", "--logging.level.dev.cairn.service.access=WARN"))
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServiceProcess service = new ServiceProcess(p, port, log);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                throw new IllegalStateException("the service exited: " + Files.readString(log));
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

    public String endpoint() {
        return "http://127.0.0.1:" + port;
    }

    public Path log() {
        return log;
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
