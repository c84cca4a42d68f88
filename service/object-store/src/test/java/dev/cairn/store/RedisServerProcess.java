package dev.cairn.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A redis-server of its own for a test: 127.0.0.1, a free port, nothing saved; always stopped by the test. */
public final class RedisServerProcess implements AutoCloseable {
    private static final Path[] CANDIDATES = {Path.of("/usr/bin/redis-server"), Path.of("/usr/local/bin/redis-server")};

    private final Path binary;
    private final int port;
    private Process process;

    private RedisServerProcess(Path binary, int port) {
        this.binary = binary;
        this.port = port;
    }

    /** The redis-server binary, or null when it is not installed. */
    public static Path binary() {
        for (Path p : CANDIDATES) {
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    public static RedisServerProcess start(Path binary) throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        RedisServerProcess r = new RedisServerProcess(binary, port);
        r.start();
        return r;
    }

    public String address() {
        return "127.0.0.1:" + port;
    }

    /** Starts it (again) on the same port and waits until it accepts connections. */
    public void start() throws IOException, InterruptedException {
        process = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (true) {
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException e) {
                if (!process.isAlive() || System.nanoTime() > deadline) {
                    stop();
                    throw new IOException("redis-server did not start on port " + port, e);
                }
                Thread.sleep(50);
            }
        }
    }

    public void stop() throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
