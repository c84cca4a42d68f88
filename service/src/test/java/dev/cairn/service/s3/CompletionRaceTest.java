package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.crash.ServiceProcess;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;

/**
 * Answers completed on a request thread while the network thread that handed the request over is
 * leaving Jetty. An answer without a body (a HEAD, an error to a HEAD, a PUT's 200) is sent by
 * Jetty when the handler's callback completes; before Jetty 12.0.34 that send's completion and the
 * network thread's exit could both complete the response's stream. The second then found it
 * recycled (SerializedInvoker logged a NullPointerException: "stream" is null), or completed the
 * connection's next request, whose client waited for an answer that never came: the PUT stall of
 * warp runs. A few keep-alive connections sending small requests back to back make that moment
 * frequent: built with {@code -Djetty.version=12.0.29} this failed each time it was run, a
 * connection waiting for its answer after about 4,200 requests, the NullPointerException in the
 * service's log.
 */
@Tag("integration")
class CompletionRaceTest {
    /**
     * Few connections: the race needs the request thread and the network thread running at once,
     * which a few busy connections give far more often than many (against Jetty 12.0.29 and HEADs
     * alone, 4 connections stalled within 1,500 requests, 128 did not in 570,000).
     */
    private static final int CONNECTIONS = 4;
    private static final int PUT_THREADS = 1;
    private static final long MAX_REQUESTS = 1_000_000;
    private static final long MAX_SECONDS = 20;
    /** Far above any answer's time on a loaded machine, far below the connection's idle timeout. */
    private static final int ANSWER_TIMEOUT_MILLIS = 5_000;

    @TempDir
    Path dataDir;

    /**
     * What each connection sends in turn. All but the GET are answered without a body on a request
     * thread; HTTP/1.0 clients keep the connection too (ab, older proxies).
     */
    private record Kind(String method, String path, String version, int status) {
        byte[] head(int port) {
            String keepAlive = version.equals("HTTP/1.0") ? "Connection: keep-alive\r\n" : "";
            return (method + " " + path + " " + version + "\r\nHost: 127.0.0.1:" + port + "\r\n" + keepAlive + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
        }
    }

    @Test
    void answersCompletedOnTwoThreadsAtOnceCompleteOnceAndNothingStalls() throws Exception {
        byte[] small = bytes(1, 1024);
        Path log = dataDir.resolve("service.log");
        // In a JVM of its own, as deployed, the clients' threads apart from the service's.
        try (ServiceProcess service = ServiceProcess.start(dataDir.resolve("data"), log, Map.of(
                // Store reads for "cold", so that its HEAD goes to a request thread.
                "cairn.cache.max-cached-object-size", "512B"));
             S3Client s3 = service.client()) {
            s3.createBucket(b -> b.bucket("race").acl(BucketCannedACL.PUBLIC_READ));
            s3.putObject(b -> b.bucket("race").key("small"), RequestBody.fromBytes(small));
            s3.putObject(b -> b.bucket("race").key("cold"), RequestBody.fromBytes(small));
            int port = service.port();
            List<Kind> kinds = List.of(
                    new Kind("HEAD", "/no-such-bucket/key", "HTTP/1.1", 403),
                    new Kind("HEAD", "/race/cold", "HTTP/1.1", 200),
                    new Kind("HEAD", "/no-such-bucket/key", "HTTP/1.0", 403),
                    new Kind("HEAD", "/race/cold", "HTTP/1.1", 200),
                    new Kind("HEAD", "/no-such-bucket/key", "HTTP/1.1", 403),
                    new Kind("GET", "/race/small", "HTTP/1.1", 200));

            long logStart = Files.size(log);
            Queue<String> failures = new ConcurrentLinkedQueue<>();
            AtomicLong requests = new AtomicLong();
            AtomicBoolean stop = new AtomicBoolean();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(MAX_SECONDS);
            List<Thread> threads = new ArrayList<>();
            String problems = "";
            try {
                for (int c = 0; c < CONNECTIONS; c++) {
                    int connection = c;
                    threads.add(started("race-" + c, () -> {
                        try {
                            keepAlive(port, connection, kinds, small.length, requests, stop, deadline);
                        } catch (IOException | RuntimeException e) {
                            failures.add("connection " + connection + ": " + e);
                            stop.set(true);
                        }
                    }));
                }
                for (int p = 0; p < PUT_THREADS; p++) {
                    int putter = p;
                    threads.add(started("race-put-" + p, () -> {
                        try {
                            for (int i = 0; !over(requests, stop, deadline); i++) {
                                String key = "put-" + putter + "-" + i;
                                s3.putObject(b -> b.bucket("race").key(key), RequestBody.fromBytes(small));
                                requests.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            failures.add("PUT thread " + putter + ": " + e);
                            stop.set(true);
                        }
                    }));
                }
                // The service's log, watched while the clients run: the race's first trace ends the run.
                while (threads.stream().anyMatch(Thread::isAlive)) {
                    problems = problems(log, logStart);
                    if (!problems.isEmpty() || System.nanoTime() - deadline > 2L * ANSWER_TIMEOUT_MILLIS * 1_000_000) {
                        stop.set(true);
                        break;
                    }
                    Thread.sleep(200);
                }
                for (Thread t : threads) {
                    t.join(2L * ANSWER_TIMEOUT_MILLIS);
                    assertTrue(!t.isAlive(), t.getName() + " still waits for an answer");
                }
            } finally {
                stop.set(true);
            }
            problems = problems(log, logStart);
            assertTrue(failures.isEmpty() && problems.isEmpty(), "Jetty " + org.eclipse.jetty.util.Jetty.VERSION
                    + ", after " + requests.get() + " requests: "
                    + failures + "\nthe service logged:\n" + problems);
            assertTrue(requests.get() > CONNECTIONS, "only " + requests.get() + " requests");
        }
    }

    /** The lines of the service's log since {@code offset} that tell of an exception nobody handled. */
    private static String problems(Path log, long offset) throws IOException {
        String text;
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(log.toFile(), "r")) {
            byte[] b = new byte[(int) Math.max(0, f.length() - offset)];
            f.seek(offset);
            f.readFully(b);
            text = new String(b, StandardCharsets.UTF_8);
        }
        StringBuilder found = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.contains(" WARN ") || line.contains(" ERROR ") || line.contains("Exception")) {
                found.append(line).append('\n');
            }
        }
        return found.toString();
    }

    private static Thread started(String name, Runnable task) {
        Thread t = new Thread(task, name);
        t.start();
        return t;
    }

    private static boolean over(AtomicLong requests, AtomicBoolean stop, long deadline) {
        return stop.get() || requests.get() >= MAX_REQUESTS
                || System.nanoTime() - deadline > 0;
    }

    /** One connection's requests back to back, each answer read and checked before the next request. */
    private static void keepAlive(int port, int connection, List<Kind> kinds, int smallLength, AtomicLong requests,
                                  AtomicBoolean stop, long deadline) throws IOException {
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(ANSWER_TIMEOUT_MILLIS);
            s.connect(new InetSocketAddress("127.0.0.1", port));
            OutputStream out = s.getOutputStream();
            InputStream in = new BufferedInputStream(s.getInputStream());
            List<byte[]> heads = new ArrayList<>();
            for (Kind k : kinds) {
                heads.add(k.head(port));
            }
            for (int i = connection; !over(requests, stop, deadline); i++) {
                Kind k = kinds.get(i % kinds.size());
                out.write(heads.get(i % kinds.size()));
                String status;
                try {
                    status = answer(in, !k.method().equals("HEAD"), smallLength);
                } catch (SocketTimeoutException e) {
                    throw new IOException(k.method() + " " + k.path() + ": no answer within "
                            + ANSWER_TIMEOUT_MILLIS + " ms", e);
                }
                if (!status.startsWith("HTTP/1.1 " + k.status() + " ")) {
                    throw new IOException(k.method() + " " + k.path() + ": " + status);
                }
                requests.incrementAndGet();
            }
        }
    }

    /** Reads one answer; returns its status line. */
    private static String answer(InputStream in, boolean withBody, int expectedLength) throws IOException {
        String status = line(in);
        if (status == null) {
            throw new IOException("the service closed the connection");
        }
        long length = 0;
        for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
            if (h.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(h.substring(15).trim());
            }
        }
        if (withBody) {
            if (status.contains(" 200 ") && length != expectedLength) {
                throw new IOException("content-length " + length + ", expected " + expectedLength);
            }
            if (in.readNBytes((int) length).length != length) {
                throw new IOException("the body ended early");
            }
        }
        return status;
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            if (c != '\r') {
                b.write(c);
            }
        }
        return c < 0 && b.size() == 0 ? null : b.toString(StandardCharsets.US_ASCII);
    }

    private static byte[] bytes(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }
}
