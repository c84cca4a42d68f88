package dev.cairn.loadtest.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server the tests start as a child process on 127.0.0.1, wait for, and always kill. Output
 * goes to a log file, shown when the server fails to start. The port is never picked free here
 * and handed over (another process may take it in between, and a probe would then find that one
 * listening): the server binds port 0 and logs the port it got, or, for one that cannot, the
 * start is tried again on another port when the server says its port was taken.
 */
final class ChildProcess implements AutoCloseable {
    private static final int ATTEMPTS = 5;

    private final String name;
    private final Process process;
    private final Path log;
    private int port;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /**
     * A port nothing listens on, held bound (not listening) until {@code close}, so that no other
     * process can take it meanwhile: connections to it are refused.
     */
    static java.net.Socket closedPort() throws IOException {
        java.net.Socket s = new java.net.Socket();
        s.bind(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
        return s;
    }

    /**
     * Starts {@code command}, which binds a port of its own choosing and logs it, and waits (up to
     * {@code startupSeconds}) until its log matches {@code listening}, whose group 1 is the port.
     */
    static ChildProcess startReportingPort(String name, List<String> command, Map<String, String> env,
                                           Pattern listening, Path log, int startupSeconds)
            throws IOException, InterruptedException {
        ChildProcess child = launch(name, command, env, log);
        try {
            Matcher m = child.awaitLog(listening, null, startupSeconds);
            child.port = Integer.parseInt(m.group(1));
        } catch (IOException | RuntimeException | InterruptedException e) {
            child.close();
            throw e;
        }
        return child;
    }

    /**
     * Starts {@code command} on a port picked free and waits (up to {@code startupSeconds}) until
     * its log matches {@code listening}; when the log matches {@code portTaken} instead, starts it
     * again on another port (at most {@value #ATTEMPTS} times).
     */
    static ChildProcess startOnFreePort(String name, IntFunction<List<String>> command, Map<String, String> env,
                                        Pattern listening, Pattern portTaken, Path log, int startupSeconds)
            throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            ChildProcess child = launch(name, command.apply(port), env, log);
            try {
                if (child.awaitLog(listening, portTaken, startupSeconds) != null) {
                    child.port = port;
                    return child;
                }
            } catch (IOException | RuntimeException | InterruptedException e) {
                child.close();
                throw e;
            }
            child.close();
            if (attempt == ATTEMPTS) {
                throw new IOException(name + " found each of " + ATTEMPTS + " free ports taken:\n" + child.logTail());
            }
        }
    }

    private static ChildProcess launch(String name, List<String> command, Map<String, String> env, Path log)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        return new ChildProcess(name, pb.start(), log);
    }

    /** The match of {@code listening} in the log; null when {@code failed} matched first. */
    private Matcher awaitLog(Pattern listening, Pattern failed, int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            boolean exited = !process.isAlive();
            String out = Files.exists(log) ? Files.readString(log) : "";
            Matcher m = listening.matcher(out);
            if (m.find()) {
                return m;
            }
            if (failed != null && failed.matcher(out).find()) {
                return null;
            }
            if (exited) {
                throw new IOException(name + " exited with " + process.exitValue() + " before listening:\n" + logTail());
            }
            Thread.sleep(200);
        }
        throw new IOException(name + " did not listen within " + seconds + " s:\n" + logTail());
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
