package dev.cairn.loadtest.targets;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A web server serving files: GET {@code base + key}, and PUT for servers that accept it
 * (nginx's WebDAV PUT, a public-write bucket). No listing. Each thread has its own
 * keep-alive connection.
 *
 * <p>Thread-safety: safe for concurrent use.
 */
public final class HttpTarget implements Target {

    /** The default timeout for connecting and for each read from the connection. */
    public static final int DEFAULT_TIMEOUT_MILLIS = 30_000;

    private final URI base;
    private final String host;
    private final int port;
    private final String pathPrefix;
    private final int timeoutMillis;
    private final Queue<HttpConnection> all = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<HttpConnection> connection;

    public HttpTarget(URI base, int timeoutMillis) {
        if (!"http".equals(base.getScheme()) || base.getHost() == null) {
            throw new IllegalArgumentException("the HTTP target needs an http://host[:port]/path/ URL, got " + base);
        }
        this.base = base;
        this.host = base.getHost();
        this.port = base.getPort() < 0 ? 80 : base.getPort();
        String path = base.getRawPath() == null || base.getRawPath().isEmpty() ? "/" : base.getRawPath();
        this.pathPrefix = path.endsWith("/") ? path : path + "/";
        this.timeoutMillis = timeoutMillis;
        this.connection = ThreadLocal.withInitial(() -> {
            HttpConnection c = new HttpConnection(host, port, this.timeoutMillis);
            all.add(c);
            return c;
        });
    }

    @Override
    public String describe() {
        return "http " + base;
    }

    @Override
    public byte[] get(String key) throws TargetException {
        HttpConnection.Response r = send("GET", key, null);
        if (r.status() != 200) {
            throw new TargetException("http-" + r.status(), "GET " + key + " answered " + r.status());
        }
        return r.body();
    }

    @Override
    public void put(String key, byte[] value) throws TargetException {
        HttpConnection.Response r = send("PUT", key, value);
        if (r.status() / 100 != 2) {
            throw new TargetException("http-" + r.status(), "PUT " + key + " answered " + r.status());
        }
    }

    @Override
    public int scan(String startAfter, int limit) throws TargetException {
        throw new TargetException("unsupported", "a plain web server cannot list keys");
    }

    @Override
    public boolean canScan() {
        return false;
    }

    private HttpConnection.Response send(String method, String key, byte[] body) throws TargetException {
        try {
            return connection.get().request(method, pathPrefix + encode(key), body);
        } catch (IOException e) {
            throw new TargetException(TargetException.kindOf(e), method + " " + key + ": " + e, e);
        } catch (RuntimeException e) {
            throw new TargetException("io", method + " " + key + ": " + e, e);
        }
    }

    /** Percent-encodes everything but RFC 3986's unreserved characters and '/'. */
    static String encode(String key) {
        StringBuilder out = new StringBuilder(key.length() + 8);
        for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_' || c == '.' || c == '~' || c == '/') {
                out.append(c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }

    @Override
    public void close() {
        for (HttpConnection c; (c = all.poll()) != null; ) {
            c.close();
        }
    }
}
