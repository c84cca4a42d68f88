package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.Type;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Public-read buckets and anonymous access, content by hash ({@code /_cas}), presigned URLs,
 * virtual-hosted addressing, unsupported operations, and the operational endpoints.
 */
class AccessAndContentTest extends ServiceTestSupport {
    private final HttpClient http = HttpClient.newHttpClient();
    private String publicBucket;
    private String privateBucket;

    @BeforeAll
    void createBuckets() {
        publicBucket = uniqueBucket("public");
        privateBucket = uniqueBucket("private");
        s3.createBucket(b -> b.bucket(publicBucket).acl(BucketCannedACL.PUBLIC_READ));
        s3.createBucket(b -> b.bucket(privateBucket));
    }

    private HttpResponse<String> anonymous(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(endpoint() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> signedGet(String path, Clock clock, Duration presignedFor) throws Exception {
        SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(URI.create(endpoint() + path)).build();
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> {
            r.identity(AwsCredentialsIdentity.create(ACCESS_KEY, SECRET_KEY)).request(request)
                    .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "s3")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                    .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, false)
                    .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clock);
            if (presignedFor != null) {
                r.putProperty(AwsV4HttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                        .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, presignedFor);
            }
        });
        HttpRequest.Builder b = HttpRequest.newBuilder(signed.request().getUri()).GET();
        signed.request().forEachHeader((name, values) -> {
            if (!name.equalsIgnoreCase("host")) {
                values.forEach(v -> b.header(name, v));
            }
        });
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String sha256(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anonymousReadsOnlyFromPublicBuckets() throws Exception {
        s3.putObject(b -> b.bucket(publicBucket).key("img/a.png").contentType("image/png"), RequestBody.fromString("pixels"));
        s3.putObject(b -> b.bucket(privateBucket).key("secret"), RequestBody.fromString("hidden"));
        HttpResponse<String> pub = anonymous("GET", "/" + publicBucket + "/img/a.png");
        assertEquals(200, pub.statusCode());
        assertEquals("pixels", pub.body());
        assertEquals("image/png", pub.headers().firstValue("Content-Type").orElse(null));
        assertEquals(200, anonymous("HEAD", "/" + publicBucket + "/img/a.png").statusCode());
        assertEquals(200, anonymous("GET", "/" + publicBucket + "?list-type=2").statusCode());

        HttpResponse<String> denied = anonymous("GET", "/" + privateBucket + "/secret");
        assertEquals(403, denied.statusCode());
        assertTrue(denied.body().contains("<Code>AccessDenied</Code>"), denied.body());
        assertTrue(denied.headers().firstValue("x-amz-request-id").isPresent());
        assertEquals(403, anonymous("PUT", "/" + publicBucket + "/new").statusCode());
        assertEquals(403, anonymous("DELETE", "/" + publicBucket + "/img/a.png").statusCode());
        assertEquals(403, anonymous("GET", "/").statusCode());
        assertEquals(403, anonymous("GET", "/no-such-bucket-anywhere/x").statusCode());

        var acl = s3.getBucketAcl(b -> b.bucket(publicBucket));
        assertTrue(acl.grants().stream().anyMatch(g -> g.grantee().type() == Type.GROUP && g.permission() == Permission.READ));
        s3.putBucketAcl(b -> b.bucket(publicBucket).acl(BucketCannedACL.PRIVATE));
        assertEquals(403, anonymous("GET", "/" + publicBucket + "/img/a.png").statusCode());
        assertEquals(1, s3.getBucketAcl(b -> b.bucket(publicBucket)).grants().size());
        s3.putBucketAcl(b -> b.bucket(publicBucket).acl(BucketCannedACL.PUBLIC_READ));
        assertEquals(200, anonymous("GET", "/" + publicBucket + "/img/a.png").statusCode());
        assertEquals(501, statusOf(() -> s3.putBucketAcl(b -> b.bucket(publicBucket).acl(BucketCannedACL.PUBLIC_READ_WRITE))));
    }

    @Test
    void contentIsServedByHashImmutably() throws Exception {
        String body = "shared image bytes " + System.nanoTime();
        String sha = sha256(body);
        s3.putObject(b -> b.bucket(privateBucket).key("one"), RequestBody.fromString(body));
        assertEquals(403, anonymous("GET", "/_cas/" + sha).statusCode());
        HttpResponse<String> signed = signedGet("/_cas/" + sha, Clock.systemUTC(), null);
        assertEquals(200, signed.statusCode());
        assertEquals(body, signed.body());
        assertEquals("public, max-age=31536000, immutable", signed.headers().firstValue("Cache-Control").orElse(null));
        assertEquals("\"" + sha + "\"", signed.headers().firstValue("ETag").orElse(null));

        s3.putObject(b -> b.bucket(publicBucket).key("two"), RequestBody.fromString(body));
        HttpResponse<String> open = anonymous("GET", "/_cas/" + sha);
        assertEquals(200, open.statusCode());
        assertEquals(body, open.body());
        s3.deleteObject(b -> b.bucket(publicBucket).key("two"));
        assertEquals(403, anonymous("GET", "/_cas/" + sha).statusCode());
        assertEquals(200, signedGet("/_cas/" + sha, Clock.systemUTC(), null).statusCode(), "still held by 'one'");
        s3.deleteObject(b -> b.bucket(privateBucket).key("one"));
        assertEquals(404, signedGet("/_cas/" + sha, Clock.systemUTC(), null).statusCode(), "reclaimed");
        assertEquals(400, signedGet("/_cas/not-a-hash", Clock.systemUTC(), null).statusCode());
        assertEquals(405, anonymous("DELETE", "/_cas/" + sha).statusCode());
        assertTrue(statusOf(() -> s3.createBucket(b -> b.bucket("actuator"))) >= 400, "reserved for operations");
        assertTrue(s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals("actuator")));
    }

    @Test
    void presignedUrlsWorkUntilTheyExpire() throws Exception {
        s3.putObject(b -> b.bucket(privateBucket).key("shared"), RequestBody.fromString("presigned body"));
        try (S3Presigner presigner = S3Presigner.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .serviceConfiguration(software.amazon.awssdk.services.s3.S3Configuration.builder().pathStyleAccessEnabled(true).build())
                .build()) {
            URI url = presigner.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(privateBucket).key("shared"))).url().toURI();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(url).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals("presigned body", r.body());
        }
        Clock anHourAgo = Clock.fixed(Instant.now().minus(Duration.ofHours(1)), ZoneOffset.UTC);
        HttpResponse<String> expired = signedGet("/" + privateBucket + "/shared", anHourAgo, Duration.ofMinutes(5));
        assertEquals(403, expired.statusCode());
        assertTrue(expired.body().contains("AccessDenied"), expired.body());
        HttpResponse<String> skewed = signedGet("/" + privateBucket + "/shared", anHourAgo, null);
        assertEquals(403, skewed.statusCode());
        assertTrue(skewed.body().contains("RequestTimeTooSkewed"), skewed.body());
    }

    @Test
    void virtualHostedAddressingReachesTheSameBuckets() throws Exception {
        try (S3Client vhost = S3Client.builder()
                .endpointOverride(URI.create("http://localhost:" + port))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .httpClientBuilder(ApacheHttpClient.builder().dnsResolver(host -> new InetAddress[] {InetAddress.getLoopbackAddress()}))
                .forcePathStyle(false)
                .build()) {
            String bucket = uniqueBucket("vhost");
            vhost.createBucket(b -> b.bucket(bucket));
            vhost.putObject(b -> b.bucket(bucket).key("dir/v.txt"), RequestBody.fromString("virtual"));
            vhost.putObject(b -> b.bucket(bucket).key("actuator/health"), RequestBody.fromString("a key"));
            assertEquals("a key", vhost.getObjectAsBytes(b -> b.bucket(bucket).key("actuator/health")).asUtf8String());
            vhost.deleteObject(b -> b.bucket(bucket).key("actuator/health"));
            assertEquals("virtual", s3.getObjectAsBytes(b -> b.bucket(bucket).key("dir/v.txt")).asUtf8String());
            assertEquals("virtual", vhost.getObjectAsBytes(b -> b.bucket(bucket).key("dir/v.txt")).asUtf8String());
            assertEquals(List.of("dir/v.txt"),
                    vhost.listObjectsV2(b -> b.bucket(bucket)).contents().stream().map(o -> o.key()).toList());
            vhost.deleteObject(b -> b.bucket(bucket).key("dir/v.txt"));
            vhost.deleteBucket(b -> b.bucket(bucket));
        }
    }

    @Test
    void unsupportedOperationsAnswerNotImplemented() throws Exception {
        assertEquals(501, statusOf(() -> s3.putBucketTagging(b -> b.bucket(privateBucket)
                .tagging(t -> t.tagSet(tag -> tag.key("a").value("b"))))));
        assertEquals(501, statusOf(() -> s3.putBucketPolicy(b -> b.bucket(privateBucket).policy("{}"))));
        s3.putObject(b -> b.bucket(privateBucket).key("t"), RequestBody.fromString("t"));
        assertEquals(501, statusOf(() -> s3.putObjectTagging(b -> b.bucket(privateBucket).key("t")
                .tagging(t -> t.tagSet(tag -> tag.key("a").value("b"))))));
        assertEquals(501, statusOf(() -> s3.putObject(b -> b.bucket(privateBucket).key("t").acl("public-read-write"),
                RequestBody.fromString("t"))));
        assertEquals(200, signedGet("/" + privateBucket + "/t?x-id=GetObject", Clock.systemUTC(), null).statusCode());
    }

    @Test
    void headersAskingForWhatCairnLacksAnswerNotImplementedAndStoreNothing() {
        RequestBody body = RequestBody.fromString("x");
        List<Runnable> refused = List.of(
                () -> s3.putObject(b -> b.bucket(privateBucket).key("sse").serverSideEncryption("AES256"), body),
                () -> s3.putObject(b -> b.bucket(privateBucket).key("sse").storageClass("GLACIER"), body),
                () -> s3.putObject(b -> b.bucket(privateBucket).key("sse").tagging("a=b"), body),
                () -> s3.putObject(b -> b.bucket(privateBucket).key("sse").websiteRedirectLocation("/x"), body),
                () -> s3.putObject(b -> b.bucket(privateBucket).key("sse").objectLockLegalHoldStatus("ON"), body),
                () -> s3.copyObject(b -> b.sourceBucket(privateBucket).sourceKey("t").destinationBucket(privateBucket)
                        .destinationKey("sse").taggingDirective("REPLACE").tagging("a=b")),
                () -> s3.createMultipartUpload(b -> b.bucket(privateBucket).key("sse").serverSideEncryption("aws:kms")),
                () -> s3.createBucket(b -> b.bucket(uniqueBucket("locked")).objectLockEnabledForBucket(true)));
        s3.putObject(b -> b.bucket(privateBucket).key("t"), RequestBody.fromString("t"));
        for (Runnable call : refused) {
            assertEquals(501, statusOf(call));
        }
        assertEquals(404, statusOf(() -> s3.headObject(b -> b.bucket(privateBucket).key("sse"))));
        assertTrue(s3.listMultipartUploads(b -> b.bucket(privateBucket).prefix("sse")).uploads().isEmpty());
        s3.putObject(b -> b.bucket(privateBucket).key("sse").storageClass("STANDARD"), RequestBody.fromString("ok"));
    }

    @Test
    void responseHeadersOnTheWire() throws Exception {
        s3.putObject(b -> b.bucket(publicBucket).key("wire").contentType("text/plain"),
                RequestBody.fromString("0123456789"));
        String path = "/" + publicBucket + "/wire";
        HttpResponse<String> ok = anonymous("GET", path);
        assertEquals(200, ok.statusCode());
        assertEquals("0123456789", ok.body());
        assertEquals(List.of("10"), ok.headers().allValues("content-length"));
        assertEquals(List.of("text/plain"), ok.headers().allValues("content-type"));
        assertEquals(List.of("bytes"), ok.headers().allValues("accept-ranges"));
        assertEquals(1, ok.headers().allValues("x-amz-request-id").size());
        String etag = ok.headers().firstValue("etag").orElseThrow();

        HttpResponse<String> overridden = anonymous("GET", path + "?response-content-type=image%2Fpng");
        assertEquals(List.of("image/png"), overridden.headers().allValues("content-type"));

        HttpResponse<String> notModified = http.send(HttpRequest.newBuilder(URI.create(endpoint() + path))
                .header("If-None-Match", etag).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(304, notModified.statusCode());
        assertEquals("", notModified.body());
        assertEquals(List.of(etag), notModified.headers().allValues("etag"));
        assertTrue(notModified.headers().firstValue("last-modified").isPresent());

        HttpResponse<String> unsatisfiable = http.send(HttpRequest.newBuilder(URI.create(endpoint() + path))
                .header("Range", "bytes=10-").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(416, unsatisfiable.statusCode());
        assertEquals(List.of("bytes */10"), unsatisfiable.headers().allValues("content-range"));
        assertEquals(List.of("application/xml"), unsatisfiable.headers().allValues("content-type"));
        assertTrue(unsatisfiable.body().contains("<Code>InvalidRange</Code>"), unsatisfiable.body());
        assertEquals(1, unsatisfiable.headers().allValues("x-amz-request-id").size());
    }

    @Test
    void healthAndMetricsAreExposed() throws Exception {
        s3.putObject(b -> b.bucket(privateBucket).key("m1"), RequestBody.fromString("same"));
        s3.putObject(b -> b.bucket(privateBucket).key("m2"), RequestBody.fromString("same"));
        HttpResponse<String> health = anonymous("GET", "/actuator/health/readiness");
        assertEquals(200, health.statusCode());
        assertTrue(health.body().contains("UP"), health.body());
        assertEquals(403, anonymous("GET", "/actuator/prometheus").statusCode());
        HttpResponse<String> prom = http.send(HttpRequest.newBuilder(URI.create(endpoint() + "/actuator/prometheus"))
                .header("Authorization", basicAuth(METRICS_KEY, METRICS_SECRET)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, prom.statusCode());
        String text = prom.body();
        for (String metric : List.of("cairn_s3_requests_seconds_count{operation=\"PutObject\"",
                "cairn_s3_requests_seconds_bucket{operation=\"GetObject\"", "cairn_s3_bytes_in_bytes_total",
                "cairn_s3_bytes_out_bytes_total", "cairn_store_dedup_ratio", "cairn_engine_memtable_bytes",
                "logback_events_total{level=\"warn\"")) {
            assertTrue(text.contains(metric), metric);
        }
        assertTrue(text.contains("cairn_s3_errors_total{code=\""), "errors by code");
        double ratio = Double.parseDouble(text.lines().filter(l -> l.startsWith("cairn_store_dedup_ratio"))
                .findFirst().orElseThrow().split(" ")[1]);
        assertTrue(ratio > 1.0, "a duplicate was written: " + ratio);
        assertNotNull(Map.of());
        // Log events are counted by an appender: no turbo filter for every level check to consult.
        assertTrue(((ch.qos.logback.classic.LoggerContext) org.slf4j.LoggerFactory.getILoggerFactory())
                .getTurboFilterList().isEmpty(), "logback turbo filters");
    }

    private static int statusOf(Runnable call) {
        try {
            call.run();
            return 200;
        } catch (software.amazon.awssdk.services.s3.model.S3Exception e) {
            return e.statusCode();
        }
    }
}
