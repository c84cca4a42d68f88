package dev.cairn.loadtest.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A server the tests start as a child process on 127.0.0.1 and a free port, wait for, and
 * always kill. Output goes to a log file, shown when the server fails to start.
 */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final int port;
    private final Path log;

    private ChildProcess(String name, Process process, int port, Path log) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Starts {@code command} and waits (up to {@code startupSeconds}) until {@code port} accepts connections. */
    static ChildProcess start(String name, List<String> command, Map<String, String> env, int port, Path log,
                              int startupSeconds) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        ChildProcess child = new ChildProcess(name, pb.start(), port, log);
        try {
            child.awaitPort(startupSeconds);
        } catch (IOException | RuntimeException | InterruptedException e) {
            child.close();
            throw e;
        }
        return child;
    }

    private void awaitPort(int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " before listening:\n" + logTail());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new IOException(name + " did not listen on port " + port + " within " + seconds + " s:\n" + logTail());
    }

    int port() {
        return port;
    }

    Path log() {
        return log;
    }

    boolean alive() {
        return process.isAlive();
    }

    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The path of an executable on PATH, or null. */
    static Path onPath(String executable) {
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/bin:/usr/sbin" : path + ":/usr/sbin:/usr/bin").split(":")) {
            Path p = Path.of(dir, executable);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** The java launcher of the running JVM. */
    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
