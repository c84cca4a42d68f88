package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * GETs and HEADs that the object cache answers are served on the network thread
 * ({@link JettyS3Handler}); everything else is handed to a pool thread and counted in
 * {@code cairn.s3.requests.handed.off}. These tests check that an answer from memory is the same
 * answer, that it is never stale after an overwrite, a metadata change by copy or an ACL change,
 * and that a signature is checked there as strictly as anywhere.
 */
class InPlaceReadsTest extends ServiceTestSupport {
    private final HttpClient http = HttpClient.newHttpClient();
    @Autowired
    private MeterRegistry registry;
    private String bucket;
    private S3Presigner presigner;

    @BeforeAll
    void bucket() {
        bucket = uniqueBucket("inplace");
        s3.createBucket(b -> b.bucket(bucket));
        presigner = presigner(SECRET_KEY);
    }

    @AfterAll
    void closePresigner() {
        presigner.close();
    }

    private S3Presigner presigner(String secret) {
        return S3Presigner.builder().endpointOverride(endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, secret)))
                .serviceConfiguration(software.amazon.awssdk.services.s3.S3Configuration.builder()
                        .pathStyleAccessEnabled(true).build())
                .build();
    }

    private double handedOff() {
        return registry.get("cairn.s3.requests.handed.off").counter().count();
    }

    private ResponseBytes<GetObjectResponse> get(String key) {
        return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key));
    }

    private HttpResponse<byte[]> send(String method, URI uri, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).method(method, HttpRequest.BodyPublishers.noBody());
        headers.forEach(b::header);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> anonymous(String method, String key) throws Exception {
        return send(method, URI.create(endpoint() + "/" + bucket + "/" + key), Map.of());
    }

    private URI presigned(S3Presigner p, String key) throws Exception {
        return p.presignGetObject(g -> g.signatureDuration(Duration.ofMinutes(10))
                .getObjectRequest(o -> o.bucket(bucket).key(key))).url().toURI();
    }

    @Test
    void aCachedObjectIsAnsweredInPlaceAndAMissIsHandedOff() {
        byte[] body = seededBytes(20 * 1024, 1);
        s3.putObject(b -> b.bucket(bucket).key("hot"), RequestBody.fromBytes(body));
        double before = handedOff();
        assertArrayEquals(body, get("hot").asByteArray());
        assertTrue(handedOff() > before, "the first GET after the PUT misses the cache");

        double warm = handedOff();
        ResponseBytes<GetObjectResponse> hit = get("hot");
        assertArrayEquals(body, hit.asByteArray());
        assertEquals(20 * 1024L, hit.response().contentLength());
        assertEquals(s3.headObject(b -> b.bucket(bucket).key("hot")).eTag(), hit.response().eTag());
        assertEquals(warm, handedOff(), "a cache hit (GET and HEAD) is served in place");

        double beforeMissing = handedOff();
        var missing = org.junit.jupiter.api.Assertions.assertThrows(
                software.amazon.awssdk.services.s3.model.NoSuchKeyException.class, () -> get("absent"));
        assertEquals(404, missing.statusCode());
        assertTrue(handedOff() > beforeMissing, "a miss is served on a pool thread");
    }

    @Test
    void conditionalsAndRangesAreAnsweredInPlace() throws Exception {
        s3.putObject(b -> b.bucket(bucket).key("cond").acl(ObjectCannedACL.PUBLIC_READ),
                RequestBody.fromString("0123456789abcdef"));
        String etag = get("cond").response().eTag();
        double warm = handedOff();
        URI uri = URI.create(endpoint() + "/" + bucket + "/cond");
        HttpResponse<byte[]> notModified = send("GET", uri, Map.of("If-None-Match", etag));
        assertEquals(304, notModified.statusCode());
        assertEquals(etag, notModified.headers().firstValue("ETag").orElseThrow());
        assertEquals(0, notModified.body().length);
        HttpResponse<byte[]> range = send("GET", uri, Map.of("Range", "bytes=4-7"));
        assertEquals(206, range.statusCode());
        assertEquals("4567", new String(range.body(), java.nio.charset.StandardCharsets.US_ASCII));
        assertEquals("bytes 4-7/16", range.headers().firstValue("Content-Range").orElseThrow());
        HttpResponse<byte[]> head = anonymous("HEAD", "cond");
        assertEquals(200, head.statusCode());
        assertEquals("16", head.headers().firstValue("Content-Length").orElseThrow());
        assertEquals(warm, handedOff());

        HttpResponse<byte[]> unsatisfiable = send("GET", uri, Map.of("Range", "bytes=100-200"));
        assertEquals(416, unsatisfiable.statusCode());
        assertTrue(new String(unsatisfiable.body(), java.nio.charset.StandardCharsets.UTF_8).contains("InvalidRange"));
    }

    @Test
    void anOverwriteIsSeenByTheNextRead() {
        s3.putObject(b -> b.bucket(bucket).key("over").contentType("text/plain").metadata(Map.of("v", "1")),
                RequestBody.fromString("first"));
        get("over");
        assertEquals("first", get("over").asUtf8String());
        s3.putObject(b -> b.bucket(bucket).key("over").contentType("image/png").metadata(Map.of("v", "2")),
                RequestBody.fromString("second!"));
        ResponseBytes<GetObjectResponse> after = get("over");
        assertEquals("second!", after.asUtf8String());
        assertEquals("image/png", after.response().contentType());
        assertEquals("2", after.response().metadata().get("v"));
        assertEquals(s3.headObject(b -> b.bucket(bucket).key("over")).eTag(), after.response().eTag());

        s3.deleteObject(b -> b.bucket(bucket).key("over"));
        org.junit.jupiter.api.Assertions.assertThrows(
                software.amazon.awssdk.services.s3.model.NoSuchKeyException.class, () -> get("over"));
    }

    @Test
    void aMetadataChangeByCopyIsSeenByTheNextRead() {
        s3.putObject(b -> b.bucket(bucket).key("meta").contentType("text/plain").cacheControl("no-cache")
                .metadata(Map.of("who", "old")), RequestBody.fromString("same bytes"));
        get("meta");
        assertEquals("old", get("meta").response().metadata().get("who"));
        s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("meta").destinationBucket(bucket).destinationKey("meta")
                .metadataDirective(MetadataDirective.REPLACE).contentType("image/jpeg").cacheControl("max-age=60")
                .metadata(Map.of("who", "new")));
        GetObjectResponse after = get("meta").response();
        assertEquals("new", after.metadata().get("who"));
        assertEquals("image/jpeg", after.contentType());
        assertEquals("max-age=60", after.cacheControl());
    }

    @Test
    void anAclChangeIsSeenByTheNextAnonymousRead() throws Exception {
        s3.putObject(b -> b.bucket(bucket).key("acl").acl(ObjectCannedACL.PUBLIC_READ), RequestBody.fromString("open"));
        assertEquals(200, anonymous("GET", "acl").statusCode());
        double warm = handedOff();
        assertEquals("open", new String(anonymous("GET", "acl").body(), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(warm, handedOff());

        s3.putObjectAcl(b -> b.bucket(bucket).key("acl").acl(ObjectCannedACL.PRIVATE));
        assertEquals(403, anonymous("GET", "acl").statusCode());
        assertEquals(403, anonymous("GET", "acl").statusCode());
        assertEquals(403, anonymous("HEAD", "acl").statusCode());
        s3.putObjectAcl(b -> b.bucket(bucket).key("acl").acl(ObjectCannedACL.PUBLIC_READ));
        assertEquals(200, anonymous("GET", "acl").statusCode());
    }

    @Test
    void aBucketAclChangeIsSeenByTheNextAnonymousRead() throws Exception {
        String open = uniqueBucket("inplace-open");
        s3.createBucket(b -> b.bucket(open).acl(BucketCannedACL.PUBLIC_READ));
        s3.putObject(b -> b.bucket(open).key("k").acl(ObjectCannedACL.PRIVATE), RequestBody.fromString("in an open bucket"));
        URI uri = URI.create(endpoint() + "/" + open + "/k");
        assertEquals(200, send("GET", uri, Map.of()).statusCode());
        assertEquals(200, send("GET", uri, Map.of()).statusCode());
        s3.putBucketAcl(b -> b.bucket(open).acl(BucketCannedACL.PRIVATE));
        assertEquals(403, send("GET", uri, Map.of()).statusCode());
        assertEquals(403, send("GET", uri, Map.of()).statusCode());
    }

    @Test
    void aPresignedUrlIsCheckedInPlaceAsStrictlyAsAnywhere() throws Exception {
        s3.putObject(b -> b.bucket(bucket).key("signed"), RequestBody.fromString("private bytes"));
        get("signed");
        URI good = presigned(presigner, "signed");
        assertEquals(200, send("GET", good, Map.of()).statusCode());
        double warm = handedOff();
        HttpResponse<byte[]> again = send("GET", good, Map.of());
        assertEquals(200, again.statusCode());
        assertEquals("private bytes", new String(again.body(), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(warm, handedOff(), "a presigned GET of a cached object is served in place");

        String q = good.getRawQuery();
        int sig = q.indexOf("X-Amz-Signature=") + "X-Amz-Signature=".length();
        char flipped = q.charAt(sig) == '0' ? '1' : '0';
        URI tampered = URI.create(endpoint() + good.getRawPath() + "?" + q.substring(0, sig) + flipped + q.substring(sig + 1));
        HttpResponse<byte[]> refused = send("GET", tampered, Map.of());
        assertEquals(403, refused.statusCode());
        assertTrue(new String(refused.body(), java.nio.charset.StandardCharsets.UTF_8).contains("SignatureDoesNotMatch"));

        URI otherKey = URI.create(endpoint() + "/" + bucket + "/other" + "?" + q);
        assertEquals(403, send("GET", otherKey, Map.of()).statusCode());

        try (S3Presigner wrongSecret = presigner("not-the-secret-0000000000000000000000000")) {
            assertEquals(403, send("GET", presigned(wrongSecret, "signed"), Map.of()).statusCode());
        }
        assertEquals(403, anonymous("GET", "signed").statusCode(), "a private object stays private");
    }
}
