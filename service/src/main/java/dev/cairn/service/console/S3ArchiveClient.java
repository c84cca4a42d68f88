package dev.cairn.service.console;

import dev.cairn.service.auth.SigV4Signing;
import dev.cairn.service.auth.UriEncoding;
import dev.cairn.service.s3.S3Exception;
import dev.cairn.service.s3.Xml;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.w3c.dom.Element;

/**
 * The little of S3 the console needs to read a backup archive in a bucket: ListObjectsV2 under a
 * prefix and GetObject of small files, signed with AWS Signature V4 (header auth, service
 * {@code s3}). With an endpoint, requests are path-style on it (another Cairn, any S3 server);
 * without, virtual-hosted on AWS's regional endpoint. Every request ends within the timeout,
 * connecting and reading included. Thread-safe.
 */
final class S3ArchiveClient implements ArchiveBucket {
    /** The SHA-256 of an empty payload, which every request here has. */
    static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    /** A listing page is at most 1000 keys: well under this. */
    private static final int MAX_LISTING_BYTES = 4 << 20;

    /** Keys to sign with; {@code sessionToken} null unless temporary credentials. */
    record Credentials(String accessKey, String secretKey, String sessionToken) {
    }

    /** Where the credentials come from; read again for every request, so rotated keys are picked up. */
    interface CredentialSource {
        Credentials get() throws IOException;
    }

    private final HttpClient http;
    private final String scheme;
    private final String host;
    private final String pathPrefix;
    private final String bucket;
    private final String region;
    private final CredentialSource credentials;
    private final Duration timeout;
    private final Clock clock;

    /**
     * @param endpoint the S3 server (scheme, host, port), path-style; null: virtual-hosted on AWS
     *                 ({@code https://BUCKET.s3.REGION.amazonaws.com})
     */
    S3ArchiveClient(URI endpoint, String bucket, String region, CredentialSource credentials, Duration timeout, Clock clock) {
        if (endpoint == null) {
            this.scheme = "https";
            this.host = bucket + ".s3." + region + ".amazonaws.com";
            this.pathPrefix = "";
        } else {
            this.scheme = endpoint.getScheme();
            this.host = hostHeader(endpoint);
            this.pathPrefix = "/" + UriEncoding.encode(bucket, false);
        }
        this.bucket = bucket;
        this.region = region;
        this.credentials = credentials;
        this.timeout = timeout;
        this.clock = clock;
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** The Host header the JDK client sends for {@code uri}: the port only when it is not the scheme's own. */
    static String hostHeader(URI uri) {
        int port = uri.getPort();
        boolean defaultPort = port == -1 || (port == 443 && "https".equals(uri.getScheme()))
                || (port == 80 && "http".equals(uri.getScheme()));
        return defaultPort ? uri.getHost() : uri.getHost() + ":" + port;
    }

    @Override
    public String describe() {
        return scheme + "://" + host + pathPrefix;
    }

    @Override
    public List<Listed> list(String prefix, String startAfter, int maxPages) throws IOException {
        List<Listed> out = new ArrayList<>();
        String token = null;
        for (int page = 0; page < maxPages; page++) {
            Map<String, String> query = new TreeMap<>();
            query.put("list-type", "2");
            query.put("prefix", prefix);
            if (token != null) {
                query.put("continuation-token", token);
            } else if (startAfter != null) {
                query.put("start-after", startAfter);
            }
            HttpResponse<byte[]> r = send(pathPrefix + "/", query, MAX_LISTING_BYTES);
            if (r.statusCode() != 200) {
                throw failure("list " + prefix, r);
            }
            Element root = parse(r.body(), "listing of " + prefix);
            for (Element c : Xml.children(root, "Contents")) {
                String etag = Xml.childText(c, "ETag");
                out.add(new Listed(Xml.childText(c, "Key"), etag == null ? "" : etag.replace("\"", "")));
            }
            token = Xml.childText(root, "NextContinuationToken");
            if (!"true".equals(Xml.childText(root, "IsTruncated")) || token == null) {
                return out;
            }
        }
        throw new IOException("listing " + prefix + " in " + describe() + " took more than " + maxPages + " pages");
    }

    @Override
    public byte[] get(String key, int maxBytes) throws IOException {
        HttpResponse<byte[]> r = send(pathPrefix + "/" + UriEncoding.encode(key, true), Map.of(), maxBytes);
        if (r.statusCode() == 404) {
            return null;
        }
        if (r.statusCode() != 200) {
            throw failure("read " + key, r);
        }
        return r.body();
    }

    private HttpResponse<byte[]> send(String rawPath, Map<String, String> query, int maxBytes) throws IOException {
        Credentials c = credentials.get();
        StringBuilder q = new StringBuilder();
        for (Map.Entry<String, String> e : new TreeMap<>(query).entrySet()) {
            q.append(q.length() == 0 ? "" : "&").append(UriEncoding.encode(e.getKey(), false)).append('=')
                    .append(UriEncoding.encode(e.getValue(), false));
        }
        String amzDate = STAMP.format(clock.instant());
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(scheme + "://" + host + rawPath + (q.length() == 0 ? "" : "?" + q)))
                .timeout(timeout).GET()
                .header("x-amz-date", amzDate)
                .header("x-amz-content-sha256", EMPTY_SHA256)
                .header("Authorization", authorization("GET", host, rawPath, q.toString(), amzDate, c));
        if (c.sessionToken() != null) {
            b.header("x-amz-security-token", c.sessionToken());
        }
        CompletableFuture<HttpResponse<byte[]>> call = http.sendAsync(b.build(), (HttpResponse.ResponseInfo info) -> {
            long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
            return declared > maxBytes ? HttpResponse.BodySubscribers.<byte[]>replacing(null) : HttpResponse.BodySubscribers.ofByteArray();
        });
        try {
            HttpResponse<byte[]> r = call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (r.statusCode() == 200 && (r.body() == null || r.body().length > maxBytes)) {
                throw new IOException(rawPath + " in " + describe() + " is larger than " + maxBytes + " bytes");
            }
            return r;
        } catch (TimeoutException e) {
            call.cancel(true);
            throw timedOut();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException) {
                throw timedOut(); // the request's own timeout, the same as the wait's: whichever fires first
            }
            throw new IOException(describe() + " is unreachable or failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            call.cancel(true);
            throw new IOException("interrupted while reading " + describe());
        }
    }

    private IOException timedOut() {
        return new IOException(describe() + " did not answer within " + timeout.toMillis() + " ms");
    }

    /**
     * The Authorization header of a request with an empty payload, signing {@code host},
     * {@code x-amz-content-sha256}, {@code x-amz-date} (and {@code x-amz-security-token} when
     * the credentials carry one). {@code rawPath} and {@code canonicalQuery} are already encoded.
     */
    String authorization(String method, String host, String rawPath, String canonicalQuery, String amzDate, Credentials c) {
        String date = amzDate.substring(0, 8);
        String scope = date + "/" + region + "/s3/aws4_request";
        StringBuilder headers = new StringBuilder("host:").append(host).append('\n')
                .append("x-amz-content-sha256:").append(EMPTY_SHA256).append('\n')
                .append("x-amz-date:").append(amzDate).append('\n');
        String signed = "host;x-amz-content-sha256;x-amz-date";
        if (c.sessionToken() != null) {
            headers.append("x-amz-security-token:").append(c.sessionToken().trim()).append('\n');
            signed += ";x-amz-security-token";
        }
        String canonical = method + "\n" + rawPath + "\n" + canonicalQuery + "\n" + headers + "\n" + signed + "\n" + EMPTY_SHA256;
        String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" + SigV4Signing.sha256Hex(canonical);
        return "AWS4-HMAC-SHA256 Credential=" + c.accessKey() + "/" + scope + ",SignedHeaders=" + signed + ",Signature="
                + SigV4Signing.signature(c.secretKey(), date, region, "s3", toSign);
    }

    private Element parse(byte[] body, String what) throws IOException {
        try {
            return Xml.parse(body);
        } catch (S3Exception e) {
            throw new IOException("the " + what + " from " + describe() + " is not XML");
        }
    }

    private IOException failure(String what, HttpResponse<byte[]> r) {
        String code = null;
        String message = null;
        if (r.body() != null && r.body().length > 0) {
            try {
                Element e = Xml.parse(r.body());
                code = Xml.childText(e, "Code");
                message = Xml.childText(e, "Message");
            } catch (S3Exception notXml) {
                message = new String(r.body(), 0, Math.min(200, r.body().length), StandardCharsets.UTF_8);
            }
        }
        return new IOException("cannot " + what + " in bucket " + bucket + " at " + describe() + ": HTTP " + r.statusCode()
                + (code == null ? "" : " " + code) + (message == null ? "" : ": " + message));
    }
}
