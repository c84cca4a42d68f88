package dev.cairn.service.s3;

import dev.cairn.store.ObjectRead;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One S3 request as the handlers see it: addressing resolved (path-style or virtual-hosted),
 * query decoded, authentication attached. Not thread-safe: one per request thread.
 */
public final class S3Request {
    public static final String CAS_PREFIX = "_cas";
    public static final int MAX_KEY_BYTES = 1024;

    final HttpExchange http;
    final String requestId;
    final String bucket;
    final String key;
    final boolean cas;
    final Map<String, String> query;
    Operation operation = Operation.UNSUPPORTED;
    Authentication auth;
    /** The object read from memory before authentication, on a thread that must not wait; else null. */
    ObjectRead inMemory;
    long bytesIn;
    long bytesOut;
    /** The request's bucket as looked up once for every request that names one ({@link #bucketKnown}); null when absent. */
    dev.cairn.store.BucketInfo bucketInfo;
    boolean bucketKnown;
    /** The CORS headers of its answer, errors included, as name, value pairs; null for none ({@link CorsHandler#headersFor}). */
    String[] cors;

    S3Request(HttpExchange http, String requestId, List<String> virtualHostDomains) throws S3Exception {
        this.http = http;
        this.requestId = requestId;
        this.query = ParsedQueries.parse(http.rawQuery());
        String raw = http.rawPath();
        if (raw == null || !raw.startsWith("/")) {
            throw new S3Exception(S3Error.INVALID_REQUEST, "bad request target");
        }
        String vhostBucket = virtualHostBucket(http.serverName(), virtualHostDomains);
        String path = raw.substring(1);
        if (vhostBucket != null) {
            bucket = vhostBucket;
            key = path.isEmpty() ? null : UrlCodec.decode(path, false);
            cas = false;
        } else if (path.isEmpty()) {
            bucket = null;
            key = null;
            cas = false;
        } else {
            int slash = path.indexOf('/');
            String first = UrlCodec.decode(slash < 0 ? path : path.substring(0, slash), false);
            String rest = slash < 0 ? "" : path.substring(slash + 1);
            cas = first.equals(CAS_PREFIX);
            bucket = cas ? null : first;
            key = rest.isEmpty() ? null : UrlCodec.decode(rest, false);
        }
    }

    /** The bucket a virtual-hosted request names in its host, or null for path-style. */
    static String virtualHostBucket(String host, List<String> domains) {
        if (host == null) {
            return null;
        }
        if (isAscii(host) && domains.stream().allMatch(S3Request::isAscii)) {
            // As below, without building a suffix string per domain on every request.
            for (String d : domains) {
                int at = host.length() - d.length();
                if (at > 1 && host.charAt(at - 1) == '.' && host.regionMatches(true, at, d, 0, d.length())) {
                    return host.substring(0, at - 1).toLowerCase(Locale.ROOT);
                }
            }
            return null;
        }
        String h = host.toLowerCase(Locale.ROOT);
        for (String d : domains) {
            String suffix = "." + d.toLowerCase(Locale.ROOT);
            if (h.endsWith(suffix) && h.length() > suffix.length()) {
                return h.substring(0, h.length() - suffix.length());
            }
        }
        return null;
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    public String bucket() {
        return bucket;
    }

    public String key() {
        return key;
    }

    public String method() {
        return http.method();
    }

    public String header(String name) {
        return http.header(name);
    }

    /** The path as sent, undecoded. */
    public String rawPath() {
        return http.rawPath();
    }

    /** The query as sent, undecoded; null when there is none. */
    public String rawQuery() {
        return http.rawQuery();
    }

    /** Whether the request has any query parameter. */
    public boolean hasQuery() {
        return !query.isEmpty();
    }

    public boolean hasParam(String name) {
        return query.containsKey(name);
    }

    public String param(String name) {
        return query.get(name);
    }

    /** The resource named in error responses. */
    String resource() {
        if (cas) {
            return "/" + CAS_PREFIX + "/" + (key == null ? "" : key);
        }
        if (bucket == null) {
            return "/";
        }
        return "/" + bucket + (key == null ? "" : "/" + key);
    }

    /** An integer parameter within bounds, its default when absent; InvalidArgument otherwise. */
    public int intParam(String name, int defaultValue, int min, int max) throws S3Exception {
        String v = query.get(name);
        if (v == null || v.isEmpty()) {
            return defaultValue;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n < min) {
                throw new S3Exception(S3Error.INVALID_ARGUMENT, name + " must be at least " + min);
            }
            return Math.min(n, max);
        } catch (NumberFormatException e) {
            throw new S3Exception(S3Error.INVALID_ARGUMENT, name + " is not an integer");
        }
    }

    public void setHeader(String name, String value) {
        if (value != null) {
            http.setHeader(name, value);
        }
    }

    /** Sends a complete XML response body. */
    public void sendXml(int status, Xml xml) throws IOException {
        byte[] body = xml.toBytes();
        http.setStatus(status);
        http.setHeader("Content-Type", "application/xml");
        http.send(body);
        bytesOut += body.length;
    }

    /** Sends a status without body. */
    public void sendEmpty(int status) {
        http.setStatus(status);
        http.setContentLength(0);
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
