package dev.cairn.service.fuzz;

import dev.cairn.service.s3.HttpExchange;
import dev.cairn.service.s3.WouldBlock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An HTTP request read from fuzz bytes, as a server would hand it over, and the response kept in
 * memory. The bytes are HTTP/1.1's request head: {@code METHOD SP target LF}, then
 * {@code name: value LF} lines, an empty line, and the body.
 */
final class FuzzExchange implements HttpExchange {
    private final String method;
    private final String rawPath;
    private final String rawQuery;
    private final String serverName;
    private final Map<String, List<String>> headers = new LinkedHashMap<>();
    private final byte[] body;
    private final Map<String, String> responseHeaders = new LinkedHashMap<>();
    private final ByteArrayOutputStream responseBody = new ByteArrayOutputStream();
    private int status = 200;
    private boolean committed;
    private boolean mayBlock = true;

    private FuzzExchange(String method, String target, byte[] body) {
        this.method = method;
        int q = target.indexOf('?');
        this.rawPath = q < 0 ? target : target.substring(0, q);
        this.rawQuery = q < 0 ? null : target.substring(q + 1);
        this.body = body;
        this.serverName = null;
    }

    private FuzzExchange(FuzzExchange head, String serverName) {
        this.method = head.method;
        this.rawPath = head.rawPath;
        this.rawQuery = head.rawQuery;
        this.body = head.body;
        this.headers.putAll(head.headers);
        this.serverName = serverName;
    }

    /** Null when the bytes have no request line (a server would not get that far). */
    static FuzzExchange parse(byte[] data) {
        int headEnd = indexOf(data, new byte[] {'\n', '\n'});
        int bodyStart = headEnd < 0 ? data.length : headEnd + 2;
        String head = new String(data, 0, headEnd < 0 ? data.length : headEnd, StandardCharsets.ISO_8859_1);
        String[] lines = head.split("\n");
        if (lines.length == 0) {
            return null;
        }
        String[] requestLine = lines[0].split(" ", 2);
        if (requestLine.length != 2 || requestLine[0].isEmpty() || requestLine[1].isEmpty()) {
            return null;
        }
        byte[] body = java.util.Arrays.copyOfRange(data, bodyStart, data.length);
        FuzzExchange x = new FuzzExchange(requestLine[0], requestLine[1], body);
        String host = null;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = lines[i].substring(colon + 1).trim();
            x.headers.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
            if (name.equals("host") && host == null) {
                int port = value.lastIndexOf(':');
                host = port < 0 ? value : value.substring(0, port);
            }
        }
        x.headers.computeIfAbsent("content-length", n -> new ArrayList<>()).add(0, String.valueOf(body.length));
        return new FuzzExchange(x, host == null ? "127.0.0.1" : host);
    }

    private static int indexOf(byte[] data, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= data.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (data[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** The same request, fresh, on an exchange that may not block ({@link HttpExchange#mayBlock()}). */
    FuzzExchange inPlace() {
        FuzzExchange x = new FuzzExchange(this, serverName);
        x.mayBlock = false;
        return x;
    }

    Map<String, String> responseHeaders() {
        return responseHeaders;
    }

    @Override
    public boolean mayBlock() {
        return mayBlock;
    }

    /** Written at once on an exchange that may not block; declined (written blocking) on the others. */
    @Override
    public boolean writeLastDetached(ByteBuffer bytes, java.util.function.LongConsumer written) {
        if (mayBlock) {
            return false;
        }
        committed = true;
        byte[] chunk = new byte[bytes.remaining()];
        bytes.get(chunk);
        responseBody.write(chunk, 0, chunk.length);
        written.accept(chunk.length);
        return true;
    }

    byte[] responseBody() {
        return responseBody.toByteArray();
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String rawPath() {
        return rawPath;
    }

    @Override
    public String rawQuery() {
        return rawQuery;
    }

    @Override
    public String serverName() {
        return serverName;
    }

    @Override
    public String remoteAddr() {
        return "127.0.0.1";
    }

    @Override
    public String header(String name) {
        List<String> values = headers.get(name.toLowerCase(Locale.ROOT));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public Map<String, List<String>> headers() {
        return headers;
    }

    @Override
    public long contentLength() {
        return body.length;
    }

    @Override
    public InputStream body() {
        if (!mayBlock) {
            throw WouldBlock.INSTANCE;
        }
        return new ByteArrayInputStream(body);
    }

    @Override
    public int status() {
        return status;
    }

    @Override
    public void setStatus(int status) {
        this.status = status;
    }

    @Override
    public void setHeader(String name, String value) {
        if (value == null) {
            responseHeaders.remove(name.toLowerCase(Locale.ROOT));
        } else {
            responseHeaders.put(name.toLowerCase(Locale.ROOT), value);
        }
    }

    @Override
    public String responseHeader(String name) {
        return responseHeaders.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public void setContentLength(long length) {
        responseHeaders.put("content-length", String.valueOf(length));
    }

    @Override
    public void write(ByteBuffer bytes, boolean last) {
        if (!mayBlock) {
            throw WouldBlock.INSTANCE;
        }
        committed = true;
        byte[] chunk = new byte[bytes.remaining()];
        bytes.get(chunk);
        responseBody.write(chunk, 0, chunk.length);
    }

    @Override
    public boolean isCommitted() {
        return committed;
    }

    @Override
    public void reset() {
        if (committed) {
            throw new IllegalStateException("reset after commit");
        }
        status = 200;
        responseHeaders.clear();
        responseBody.reset();
    }
}
