package dev.cairn.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** A redis-server of its own for a test: 127.0.0.1, a port it bound, nothing saved; always stopped by the test. */
public final class RedisServerProcess implements AutoCloseable {
    private static final int ATTEMPTS = 5;
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

    /**
     * Starts one on a free port. redis-server cannot bind port 0 and report it, so a port picked
     * free here may be taken by another process before redis-server binds it: it then exits
     * saying so, and the start is tried again on another port (at most {@value #ATTEMPTS} times).
     */
    public static RedisServerProcess start(Path binary) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            int port;
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = s.getLocalPort();
            }
            RedisServerProcess r = new RedisServerProcess(binary, port);
            if (r.tryStart()) {
                return r;
            }
            if (attempt == ATTEMPTS) {
                throw new IOException("redis-server found each of " + ATTEMPTS + " free ports taken");
            }
        }
    }

    public String address() {
        return "127.0.0.1:" + port;
    }

    /**
     * Starts it again on the same port (the clients know it): when another process holds the
     * port meanwhile, waits for it to be free, up to 20 s.
     */
    public void start() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!tryStart()) {
            if (System.nanoTime() > deadline) {
                throw new IOException("port " + port + " stayed taken; redis-server could not start on it again");
            }
            Thread.sleep(200);
        }
    }

    /**
     * Starts redis-server and waits until it says it accepts connections (a probe could find
     * another process on the port); false when it could not bind the port.
     */
    private boolean tryStart() throws IOException, InterruptedException {
        Path log = Files.createTempFile("redis-server", ".log");
        try {
            process = new ProcessBuilder(binary.toString(), "--port", Integer.toString(port), "--bind", "127.0.0.1",
                    "--save", "", "--appendonly", "no")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (true) {
                String out = Files.readString(log);
                if (out.contains("Ready to accept connections")) {
                    return true;
                }
                if (!process.isAlive()) {
                    process = null;
                    if (out.contains("Address already in use")) {
                        return false;
                    }
                    throw new IOException("redis-server did not start on port " + port + ": " + out);
                }
                if (System.nanoTime() > deadline) {
                    stop();
                    throw new IOException("redis-server did not start on port " + port + " in 20 s: " + out);
                }
                Thread.sleep(50);
            }
        } finally {
            // Its output goes on to the deleted file; redis-server logs little after it started.
            Files.deleteIfExists(log);
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
