package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.CORSRule;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * CORS through the AWS SDK (Put/Get/DeleteBucketCors) and as a browser sends it: preflights
 * answered without credentials, and the {@code Access-Control-*} headers of anonymous and signed
 * answers, errors included.
 */
@Tag("integration")
class BucketCorsTest extends ServiceTestSupport {
    private static final String APP = "https://app.example.com";
    private final HttpClient http = HttpClient.newHttpClient();
    private String bucket;
    private String plain;

    @BeforeAll
    void createBuckets() {
        bucket = uniqueBucket("cors");
        plain = uniqueBucket("nocors");
        s3.createBucket(b -> b.bucket(bucket).acl(BucketCannedACL.PUBLIC_READ));
        s3.createBucket(b -> b.bucket(plain).acl(BucketCannedACL.PUBLIC_READ));
        s3.putObject(b -> b.bucket(bucket).key("img.png"), RequestBody.fromString("png"));
        s3.putObject(b -> b.bucket(plain).key("img.png"), RequestBody.fromString("png"));
        s3.putBucketCors(b -> b.bucket(bucket).corsConfiguration(c -> c.corsRules(
                CORSRule.builder().id("uploads").allowedOrigins("https://*.example.com")
                        .allowedMethods("PUT", "GET").allowedHeaders("content-type", "x-amz-*")
                        .exposeHeaders("ETag").maxAgeSeconds(300).build(),
                CORSRule.builder().allowedOrigins("*").allowedMethods("GET", "HEAD").build())));
    }

    private HttpResponse<String> send(String method, String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    @Test
    void theConfigurationReadsBackAndGoesAway() {
        List<CORSRule> rules = s3.getBucketCors(b -> b.bucket(bucket)).corsRules();
        assertEquals(2, rules.size());
        assertEquals("uploads", rules.get(0).id());
        assertEquals(List.of("https://*.example.com"), rules.get(0).allowedOrigins());
        assertEquals(List.of("PUT", "GET"), rules.get(0).allowedMethods());
        assertEquals(List.of("content-type", "x-amz-*"), rules.get(0).allowedHeaders());
        assertEquals(List.of("ETag"), rules.get(0).exposeHeaders());
        assertEquals(300, rules.get(0).maxAgeSeconds());

        String other = uniqueBucket("corsgone");
        s3.createBucket(b -> b.bucket(other));
        s3.putBucketCors(b -> b.bucket(other).corsConfiguration(c -> c.corsRules(
                CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build())));
        assertEquals(204, s3.deleteBucketCors(b -> b.bucket(other)).sdkHttpResponse().statusCode());
        S3Exception none = assertThrows(S3Exception.class, () -> s3.getBucketCors(b -> b.bucket(other)));
        assertEquals(404, none.statusCode());
        assertEquals("NoSuchCORSConfiguration", none.awsErrorDetails().errorCode());
        assertThrows(NoSuchBucketException.class, () -> s3.putBucketCors(b -> b.bucket("no-" + other)
                .corsConfiguration(c -> c.corsRules(CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build()))));
    }

    @Test
    void badConfigurationsAreRefusedAndTheStoredOneStays() {
        S3Exception method = assertThrows(S3Exception.class, () -> s3.putBucketCors(b -> b.bucket(bucket)
                .corsConfiguration(c -> c.corsRules(CORSRule.builder().allowedOrigins("*").allowedMethods("PATCH").build()))));
        assertEquals(400, method.statusCode());
        assertEquals("InvalidRequest", method.awsErrorDetails().errorCode());
        S3Exception wildcards = assertThrows(S3Exception.class, () -> s3.putBucketCors(b -> b.bucket(bucket)
                .corsConfiguration(c -> c.corsRules(CORSRule.builder().allowedOrigins("*.*").allowedMethods("GET").build()))));
        assertEquals("InvalidRequest", wildcards.awsErrorDetails().errorCode());
        S3Exception digest = assertThrows(S3Exception.class, () -> s3.putBucketCors(b -> b.bucket(bucket)
                .contentMD5("1B2M2Y8AsgTpgAmY7PhCfg==")
                .corsConfiguration(c -> c.corsRules(CORSRule.builder().allowedOrigins("*").allowedMethods("GET").build()))));
        assertEquals("BadDigest", digest.awsErrorDetails().errorCode());
        assertEquals(2, s3.getBucketCors(b -> b.bucket(bucket)).corsRules().size());
    }

    @Test
    void aPreflightIsAnsweredFromTheRulesWithoutCredentials() throws Exception {
        HttpResponse<String> ok = send("OPTIONS", "/" + bucket + "/uploads/new.png", "Origin", "https://www.example.com",
                "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "Content-Type, X-Amz-Date");
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("https://www.example.com", header(ok, "Access-Control-Allow-Origin"));
        assertEquals("PUT, GET", header(ok, "Access-Control-Allow-Methods"));
        assertEquals("content-type, x-amz-date", header(ok, "Access-Control-Allow-Headers"));
        assertEquals("300", header(ok, "Access-Control-Max-Age"));
        assertEquals("true", header(ok, "Access-Control-Allow-Credentials"));
        assertEquals(CorsHandler.VARY, header(ok, "Vary"));

        HttpResponse<String> anyone = send("OPTIONS", "/" + bucket + "/img.png", "Origin", "https://elsewhere.org",
                "Access-Control-Request-Method", "GET");
        assertEquals(200, anyone.statusCode());
        assertEquals("*", header(anyone, "Access-Control-Allow-Origin"));
        assertEquals(null, header(anyone, "Access-Control-Allow-Credentials"));

        HttpResponse<String> denied = send("OPTIONS", "/" + bucket + "/img.png", "Origin", "https://elsewhere.org",
                "Access-Control-Request-Method", "PUT");
        assertEquals(403, denied.statusCode());
        assertTrue(denied.body().contains("<Code>AccessForbidden</Code>"), denied.body());
        assertTrue(denied.body().contains("CORSResponse: This CORS request is not allowed."), denied.body());
        assertEquals(null, header(denied, "Access-Control-Allow-Origin"));
        HttpResponse<String> header = send("OPTIONS", "/" + bucket + "/img.png", "Origin", "https://www.example.com",
                "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "x-other");
        assertEquals(403, header.statusCode(), "a requested header no rule allows");

        HttpResponse<String> none = send("OPTIONS", "/" + plain + "/img.png", "Origin", APP,
                "Access-Control-Request-Method", "GET");
        assertEquals(403, none.statusCode());
        assertTrue(none.body().contains("<Code>AccessForbidden</Code>"), none.body());
        HttpResponse<String> missing = send("OPTIONS", "/no-" + bucket + "/img.png", "Origin", APP,
                "Access-Control-Request-Method", "GET");
        assertEquals(404, missing.statusCode());
        assertTrue(missing.body().contains("<Code>NoSuchBucket</Code>"), missing.body());
        assertEquals(400, send("OPTIONS", "/" + bucket + "/img.png", "Access-Control-Request-Method", "GET").statusCode());
        assertEquals(400, send("OPTIONS", "/" + bucket + "/img.png", "Origin", APP).statusCode());
    }

    @Test
    void aVirtualHostedPreflightIsAnsweredAsAPathStyleOne() throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("OPTIONS /img.png HTTP/1.1\r\nHost: " + bucket + ".localhost:" + port
                    + "\r\nOrigin: https://www.example.com\r\nAccess-Control-Request-Method: PUT\r\n"
                    + "Connection: close\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            RawS3.Response r = RawS3.read(socket.getInputStream());
            assertEquals(200, r.status(), r.body());
            assertEquals("https://www.example.com", r.headers().get("access-control-allow-origin"));
            assertEquals("PUT, GET", r.headers().get("access-control-allow-methods"));
        }
    }

    @Test
    void answersCarryTheHeadersOfTheRuleTheirOriginMatches() throws Exception {
        HttpResponse<String> get = send("GET", "/" + bucket + "/img.png", "Origin", "https://www.example.com");
        assertEquals(200, get.statusCode());
        assertEquals("png", get.body());
        assertEquals("https://www.example.com", header(get, "Access-Control-Allow-Origin"));
        assertEquals("ETag", header(get, "Access-Control-Expose-Headers"));
        assertEquals("300", header(get, "Access-Control-Max-Age"));
        assertEquals("true", header(get, "Access-Control-Allow-Credentials"));
        assertEquals(CorsHandler.VARY, header(get, "Vary"));
        // Twice: the second is answered from memory on the thread that read it.
        assertEquals("https://www.example.com",
                header(send("GET", "/" + bucket + "/img.png", "Origin", "https://www.example.com"), "Access-Control-Allow-Origin"));

        HttpResponse<String> noOrigin = send("GET", "/" + bucket + "/img.png");
        assertEquals(null, header(noOrigin, "Access-Control-Allow-Origin"));
        assertEquals(CorsHandler.VARY, header(noOrigin, "Vary"), "a cache must not give this answer to a browser");

        HttpResponse<String> absent = send("GET", "/" + bucket + "/absent.png", "Origin", "https://other.org");
        assertEquals(404, absent.statusCode(), "a public-read bucket: NoSuchKey");
        assertEquals("*", header(absent, "Access-Control-Allow-Origin"), "an error a page may read");
        HttpResponse<String> put = send("PUT", "/" + bucket + "/anon.png", "Origin", "https://www.example.com");
        assertEquals(403, put.statusCode());
        assertEquals("https://www.example.com", header(put, "Access-Control-Allow-Origin"));
        assertEquals(null, header(send("DELETE", "/" + bucket + "/img.png", "Origin", "https://other.org"),
                "Access-Control-Allow-Origin"), "no rule allows DELETE");

        var signed = s3.getObjectAsBytes(b -> b.bucket(bucket).key("img.png")
                .overrideConfiguration(o -> o.putHeader("Origin", "https://www.example.com"))).response().sdkHttpResponse();
        assertEquals(Optional.of("https://www.example.com"), signed.firstMatchingHeader("Access-Control-Allow-Origin"));

        HttpResponse<String> other = send("GET", "/" + plain + "/img.png", "Origin", APP);
        assertEquals(200, other.statusCode());
        assertFalse(other.headers().firstValue("Access-Control-Allow-Origin").isPresent());
        assertEquals(Optional.empty(), other.headers().firstValue("Vary"), "a bucket without CORS answers as before");
    }
}
