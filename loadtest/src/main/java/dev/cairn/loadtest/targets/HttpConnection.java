package dev.cairn.loadtest.targets;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * One persistent HTTP/1.1 connection, blocking, one request at a time, as a benchmark client
 * such as wrk holds one per connection: the least client work per request, so the server is
 * what gets measured. Reads Content-Length and chunked bodies; reconnects when the server
 * closes.
 *
 * <p>Thread-safety: not thread-safe; one per thread.
 */
final class HttpConnection implements Closeable {

    /** An HTTP response: status and body. */
    record Response(int status, byte[] body) {
    }

    private static final int MAX_HEADER_BYTES = 64 << 10;

    private final String host;
    private final int port;
    private final int timeoutMillis;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    HttpConnection(String host, int port, int timeoutMillis) {
        this.host = host;
        this.port = port;
        this.timeoutMillis = timeoutMillis;
    }

    Response request(String method, String path, byte[] body) throws IOException {
        boolean reused = socket != null;
        try {
            return exchange(method, path, body);
        } catch (IOException e) {
            close();
            if (!reused || e instanceof java.net.SocketTimeoutException) {
                throw e;
            }
            // A keep-alive connection the server closed while idle fails on first use; like wrk and
            // browsers, send once more on a fresh connection. A fresh connection's failure counts.
            return exchange(method, path, body);
        }
    }

    private Response exchange(String method, String path, byte[] body) throws IOException {
        if (socket == null) {
            open();
        }
        StringBuilder head = new StringBuilder(128).append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                .append(host).append(':').append(port).append("\r\n");
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            out.write(body);
        }
        out.flush();
        return readResponse(method.equals("HEAD"));
    }

    private void open() throws IOException {
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.setSoTimeout(timeoutMillis);
            s.connect(new InetSocketAddress(host, port), timeoutMillis);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        in = new BufferedInputStream(s.getInputStream(), 64 << 10);
        out = new BufferedOutputStream(s.getOutputStream(), 16 << 10);
    }

    private Response readResponse(boolean head) throws IOException {
        String statusLine = readLine();
        if (!statusLine.startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP response: " + statusLine);
        }
        int status = Integer.parseInt(statusLine.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean close = statusLine.startsWith("HTTP/1.0");
        int headerBytes = 0;
        for (String line = readLine(); !line.isEmpty(); line = readLine()) {
            headerBytes += line.length();
            if (headerBytes > MAX_HEADER_BYTES) {
                throw new IOException("response headers too large");
            }
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> { }
            }
        }
        byte[] body;
        if (head || status == 204 || status == 304 || status / 100 == 1) {
            body = new byte[0];
        } else if (chunked) {
            body = readChunked();
        } else if (length >= 0) {
            body = readExactly(Math.toIntExact(length));
        } else {
            body = in.readAllBytes();
            close = true;
        }
        if (close) {
            close();
        }
        return new Response(status, body);
    }

    private byte[] readChunked() throws IOException {
        byte[] body = new byte[0];
        while (true) {
            String sizeLine = readLine();
            int semi = sizeLine.indexOf(';');
            int size = Integer.parseInt((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
            if (size == 0) {
                while (!readLine().isEmpty()) {
                    // trailers
                }
                return body;
            }
            byte[] chunk = readExactly(size);
            int at = body.length;
            body = Arrays.copyOf(body, at + size);
            System.arraycopy(chunk, 0, body, at, size);
            readLine();
        }
    }

    private byte[] readExactly(int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length != n) {
            throw new EOFException("response body cut short: " + b.length + " of " + n + " bytes");
        }
        return b;
    }

    private String readLine() throws IOException {
        StringBuilder line = new StringBuilder(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                throw new EOFException("connection closed by the server");
            }
            if (c == '\n') {
                int n = line.length();
                return n > 0 && line.charAt(n - 1) == '\r' ? line.substring(0, n - 1) : line.toString();
            }
            if (line.length() > MAX_HEADER_BYTES) {
                throw new IOException("response line too long");
            }
            line.append((char) c);
        }
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a broken connection
            }
            socket = null;
        }
    }
}
