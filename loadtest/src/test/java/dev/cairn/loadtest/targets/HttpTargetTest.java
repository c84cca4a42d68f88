package dev.cairn.loadtest.targets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The plain HTTP client against a scripted server on loopback: Content-Length and chunked
 * bodies, a server that closes the connection, error statuses, a closed port.
 */
class HttpTargetTest {

    private ServerSocket server;
    private Thread acceptor;
    private final List<String> requestLines = new CopyOnWriteArrayList<>();
    private final List<Socket> connections = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(() -> {
            try {
                while (!server.isClosed()) {
                    Socket s = server.accept();
                    connections.add(s);
                    Thread t = new Thread(() -> serve(s));
                    t.setDaemon(true);
                    t.start();
                }
            } catch (IOException closed) {
                // the test is over
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        for (Socket s : connections) {
            s.close();
        }
        acceptor.join(5_000);
    }

    /** Answers by path: /len/*, /chunked/*, /close/*, /missing/*; PUT echoes the body length. */
    private void serve(Socket s) {
        try (s) {
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
            OutputStream out = s.getOutputStream();
            while (true) {
                String line = in.readLine();
                if (line == null) {
                    return;
                }
                requestLines.add(line);
                int length = 0;
                for (String h = in.readLine(); h != null && !h.isEmpty(); h = in.readLine()) {
                    if (h.toLowerCase().startsWith("content-length:")) {
                        length = Integer.parseInt(h.substring(15).trim());
                    }
                }
                char[] body = new char[length];
                for (int got = 0; got < length; ) {
                    got += in.read(body, got, length - got);
                }
                String path = line.split(" ")[1];
                if (line.startsWith("PUT")) {
                    write(out, "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n");
                } else if (path.startsWith("/base/len/")) {
                    write(out, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello");
                } else if (path.startsWith("/base/chunked/")) {
                    write(out, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n4\r\ndefg\r\n0\r\nTrailer: 1\r\n\r\n");
                } else if (path.startsWith("/base/close/")) {
                    write(out, "HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok");
                    return;
                } else {
                    write(out, "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found");
                }
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private static void write(OutputStream out, String response) throws IOException {
        out.write(response.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private HttpTarget target() {
        return new HttpTarget(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/base"), 5_000);
    }

    @Test
    void readsBodiesOfEveryFramingOverOneConnection() throws Exception {
        try (HttpTarget t = target()) {
            assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), t.get("len/a.jpg"));
            assertArrayEquals("abcdefg".getBytes(StandardCharsets.US_ASCII), t.get("chunked/b.jpg"));
            assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), t.get("len/c.jpg"));
            t.put("img/00001/d.jpg", new byte[1000]);
        }
        assertEquals(1, connections.size(), "keep-alive: one connection for every request");
        assertEquals(List.of("GET /base/len/a.jpg HTTP/1.1", "GET /base/chunked/b.jpg HTTP/1.1",
                "GET /base/len/c.jpg HTTP/1.1", "PUT /base/img/00001/d.jpg HTTP/1.1"), requestLines);
    }

    @Test
    void reconnectsAfterTheServerCloses() throws Exception {
        try (HttpTarget t = target()) {
            assertArrayEquals("ok".getBytes(StandardCharsets.US_ASCII), t.get("close/a"));
            assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), t.get("len/b"));
        }
        assertEquals(2, connections.size());
    }

    @Test
    void statusesAndUnreachableServersAreFailuresByKind() throws Exception {
        try (HttpTarget t = target()) {
            assertEquals("http-404", assertThrows(TargetException.class, () -> t.get("missing/x")).kind());
            assertEquals("unsupported", assertThrows(TargetException.class, () -> t.scan("a", 10)).kind());
        }
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        try (HttpTarget t = new HttpTarget(URI.create("http://127.0.0.1:" + closed + "/"), 2_000)) {
            assertEquals("connect", assertThrows(TargetException.class, () -> t.get("a")).kind());
        }
    }

    @Test
    void keysArePercentEncodedExceptSlashes() {
        assertEquals("img/00001/a%20b%C3%A9.jpg", HttpTarget.encode("img/00001/a bé.jpg"));
        assertEquals("a-b_c.d~e/f", HttpTarget.encode("a-b_c.d~e/f"));
    }
}
