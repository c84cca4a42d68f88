package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A signed-in console session over plain HTTP, for tests that need no browser. */
final class ConsoleHttp {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .connectTimeout(Duration.ofSeconds(60)).build();
    private final String base;

    private ConsoleHttp(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    static ConsoleHttp signIn(int port, String accessKey, String secret) throws IOException, InterruptedException {
        ConsoleHttp c = new ConsoleHttp(port);
        String form = c.get("/console/login").body();
        Matcher token = Pattern.compile("name=\"signin\" value=\"([^\"]+)\"").matcher(form);
        assertTrue(token.find(), form);
        String body = "accessKey=" + enc(accessKey) + "&secretKey=" + enc(secret) + "&signin=" + enc(token.group(1));
        HttpResponse<String> signedIn = c.http.send(HttpRequest.newBuilder(URI.create(c.base + "/console/login"))
                .timeout(Duration.ofSeconds(60)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(303, signedIn.statusCode(), signedIn.body());
        return c;
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The session's CSRF token, from a page's {@code <meta name="csrf-token">}. */
    String csrfToken() throws IOException, InterruptedException {
        String page = get("/console/buckets").body();
        Matcher m = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\">").matcher(page);
        assertTrue(m.find(), page);
        return m.group(1);
    }

    /** A form POST with the session's CSRF token. */
    HttpResponse<String> post(String path, String form) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form + "&_csrf=" + enc(csrfToken()))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A PUT of {@code body} as the page's script sends an upload, with the CSRF token. */
    HttpResponse<String> put(String path, HttpRequest.BodyPublisher body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofMinutes(2))
                .header("X-CSRF-Token", csrfToken()).header("Content-Type", "application/octet-stream").PUT(body).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    JsonNode json(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = get(path);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    /** Reads {@code path} until {@code done} holds of its JSON, for up to two minutes. */
    JsonNode until(String path, Predicate<JsonNode> done) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = json(path);
            if (done.test(last)) {
                return last;
            }
            Thread.sleep(100); // poll pacing, as the page does every 2 s
        }
        throw new AssertionError("not within two minutes; last answer: " + last);
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
