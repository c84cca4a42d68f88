package dev.cairn.service.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One keep-alive HTTP/1.1 connection of {@link MemoryLoad}: a request head and body written
 * as given, a response read by Content-Length (or chunks). Not thread-safe.
 */
final class HttpConn implements Closeable {
    private static final int CONNECT_TIMEOUT_MS = 30_000;
    private static final int READ_TIMEOUT_MS = 120_000;

    interface BodyWriter {
        void writeTo(OutputStream out) throws IOException;
    }

    record Response(int status, Map<String, String> headers, long contentLength, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String text() {
            return body == null ? "" : new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private long bodyLeft;

    HttpConn(String host, int port, int receiveBuffer) throws IOException {
        socket = new Socket();
        try {
            if (receiveBuffer > 0) {
                socket.setReceiveBufferSize(receiveBuffer);
            }
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(READ_TIMEOUT_MS);
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MS);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = new BufferedOutputStream(socket.getOutputStream(), 64 * 1024);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Sends a request and reads its whole response. */
    Response exchange(String head, long bodyLength, BodyWriter body) throws IOException {
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        if (bodyLength > 0) {
            body.writeTo(out);
        }
        out.flush();
        Response r = readHead();
        return new Response(r.status, r.headers, r.contentLength, readWholeBody(r));
    }

    /** Sends a bodiless request and reads the response head only; the body is read by {@link #readBody}. */
    Response send(String head) throws IOException {
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        Response r = readHead();
        if (r.contentLength < 0) {
            throw new IOException("a streamed response needs a Content-Length");
        }
        bodyLeft = r.contentLength;
        return r;
    }

    /** Reads at most {@code max} bytes of the body of {@link #send}'s response; at least one. */
    int readBody(byte[] buf, int max) throws IOException {
        int n = in.read(buf, 0, (int) Math.min(max, bodyLeft));
        if (n < 0) {
            throw new EOFException("the response ended " + bodyLeft + " bytes early");
        }
        bodyLeft -= n;
        return n;
    }

    private Response readHead() throws IOException {
        String status = line();
        if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
            throw new IOException("not an HTTP/1.1 answer: " + status);
        }
        Map<String, String> headers = new HashMap<>();
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
        }
        String length = headers.get("content-length");
        return new Response(Integer.parseInt(status.substring(9, 12)), headers,
                length == null ? -1 : Long.parseLong(length), null);
    }

    private byte[] readWholeBody(Response r) throws IOException {
        if (r.contentLength >= 0) {
            byte[] b = in.readNBytes((int) r.contentLength);
            if (b.length != r.contentLength) {
                throw new EOFException("the response ended early");
            }
            return b;
        }
        if (!"chunked".equalsIgnoreCase(r.header("transfer-encoding"))) {
            throw new IOException("a response without Content-Length or chunks");
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = Integer.parseInt(line().split(";")[0].trim(), 16); size > 0;
             size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
            body.write(in.readNBytes(size));
            line();
        }
        while (!line().isEmpty()) {
            // trailers
        }
        return body.toByteArray();
    }

    private String line() throws IOException {
        StringBuilder s = new StringBuilder();
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new EOFException("the connection closed");
            }
            if (c != '\r') {
                s.append((char) c);
            }
        }
        return s.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing only
        }
    }
}
