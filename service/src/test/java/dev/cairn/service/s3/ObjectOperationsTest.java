package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Buckets and single objects through the AWS SDK: success and error paths. */
class ObjectOperationsTest extends ServiceTestSupport {
    private String bucket;

    @BeforeEach
    void createBucket() {
        bucket = uniqueBucket("objects");
        s3.createBucket(b -> b.bucket(bucket));
    }

    private static String md5Hex(byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(data));
    }

    private static S3Exception s3Error(Runnable call) {
        return assertThrows(S3Exception.class, call::run);
    }

    @Test
    void bucketsAreCreatedListedHeadedAndDeleted() {
        assertTrue(s3.listBuckets().buckets().stream().anyMatch(b -> b.name().equals(bucket)));
        s3.headBucket(b -> b.bucket(bucket));
        // us-east-1: S3 answers re-creating an owned bucket 200 (ClientRequestsTest has the details).
        assertEquals(200, s3.createBucket(b -> b.bucket(bucket)).sdkHttpResponse().statusCode());
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x"));
        S3Exception notEmpty = s3Error(() -> s3.deleteBucket(b -> b.bucket(bucket)));
        assertEquals(409, notEmpty.statusCode());
        assertEquals("BucketNotEmpty", notEmpty.awsErrorDetails().errorCode());
        assertNotNull(notEmpty.requestId());
        s3.deleteObject(b -> b.bucket(bucket).key("k"));
        s3.deleteBucket(b -> b.bucket(bucket));
        assertThrows(NoSuchBucketException.class, () -> s3.headBucket(b -> b.bucket(bucket)));
        assertThrows(NoSuchBucketException.class, () -> s3.deleteBucket(b -> b.bucket(bucket)));
        S3Exception bad = s3Error(() -> s3.createBucket(b -> b.bucket("xn--bucket")));
        assertEquals("InvalidBucketName", bad.awsErrorDetails().errorCode());
        s3.createBucket(b -> b.bucket(bucket));
    }

    @Test
    void bucketsNamedLikeServletDirectoriesAreOrdinary() {
        for (String name : new String[] {"web-inf", "meta-inf"}) {
            s3.createBucket(b -> b.bucket(name));
            try {
                s3.putObject(b -> b.bucket(name).key("k"), RequestBody.fromString("x"));
                assertEquals("x", s3.getObjectAsBytes(b -> b.bucket(name).key("k")).asUtf8String());
                s3.deleteObject(b -> b.bucket(name).key("k"));
            } finally {
                s3.deleteBucket(b -> b.bucket(name));
            }
        }
    }

    @Test
    void aMetadataNameLongerThanAColumnNameIsRefusedAndWritesNothing() {
        String name = "n".repeat(1024 - "x-amz-meta-".length() + 1);
        S3Exception tooLong = s3Error(() -> s3.putObject(b -> b.bucket(bucket).key("long-name")
                .metadata(Map.of(name, "v")), RequestBody.fromString("x")));
        assertEquals(400, tooLong.statusCode());
        assertEquals("MetadataTooLarge", tooLong.awsErrorDetails().errorCode());
        assertThrows(NoSuchKeyException.class, () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("long-name")));
        String longest = name.substring(1);
        s3.putObject(b -> b.bucket(bucket).key("long-name").metadata(Map.of(longest, "v")), RequestBody.fromString("x"));
        assertEquals(Map.of(longest, "v"), s3.headObject(b -> b.bucket(bucket).key("long-name")).metadata());
    }

    @Test
    void putGetHeadDeleteWithMetadataAndStandardHeaders() throws Exception {
        byte[] data = "hello, cairn".getBytes(StandardCharsets.UTF_8);
        String etag = s3.putObject(b -> b.bucket(bucket).key("dir/hello.txt")
                        .contentType("text/plain").cacheControl("max-age=60").contentDisposition("inline")
                        .contentEncoding("identity").contentLanguage("en").expires(Instant.parse("2030-01-01T00:00:00Z"))
                        .metadata(Map.of("colour", "blue", "owner", "me")),
                RequestBody.fromBytes(data)).eTag();
        assertEquals("\"" + md5Hex(data) + "\"", etag);

        ResponseBytes<GetObjectResponse> got = s3.getObjectAsBytes(b -> b.bucket(bucket).key("dir/hello.txt"));
        assertArrayEquals(data, got.asByteArray());
        GetObjectResponse r = got.response();
        assertEquals(etag, r.eTag());
        assertEquals("text/plain", r.contentType());
        assertEquals("max-age=60", r.cacheControl());
        assertEquals("inline", r.contentDisposition());
        assertEquals("identity", r.contentEncoding());
        assertEquals("en", r.contentLanguage());
        assertEquals(Map.of("colour", "blue", "owner", "me"), r.metadata());
        assertEquals(data.length, r.contentLength());

        HeadObjectResponse h = s3.headObject(b -> b.bucket(bucket).key("dir/hello.txt"));
        assertEquals(etag, h.eTag());
        assertEquals(data.length, h.contentLength());
        assertEquals(Map.of("colour", "blue", "owner", "me"), h.metadata());

        s3.deleteObject(b -> b.bucket(bucket).key("dir/hello.txt"));
        s3.deleteObject(b -> b.bucket(bucket).key("dir/hello.txt"));
        NoSuchKeyException missing = assertThrows(NoSuchKeyException.class,
                () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("dir/hello.txt")));
        assertEquals(404, missing.statusCode());
        S3Exception headMissing = s3Error(() -> s3.headObject(b -> b.bucket(bucket).key("dir/hello.txt")));
        assertEquals(404, headMissing.statusCode());
        assertThrows(NoSuchBucketException.class,
                () -> s3.getObjectAsBytes(b -> b.bucket("no-such-bucket-here").key("k")));
        assertThrows(NoSuchBucketException.class,
                () -> s3.putObject(b -> b.bucket("no-such-bucket-here").key("k"), RequestBody.fromString("x")));
    }

    @Test
    void largeObjectsStreamBothWays() throws Exception {
        byte[] data = new byte[3 * 1024 * 1024 + 17];
        new Random(1).nextBytes(data);
        s3.putObject(b -> b.bucket(bucket).key("big"), RequestBody.fromBytes(data));
        byte[] back = s3.getObjectAsBytes(b -> b.bucket(bucket).key("big")).asByteArray();
        assertArrayEquals(data, back);
        byte[] slice = s3.getObjectAsBytes(b -> b.bucket(bucket).key("big").range("bytes=1048570-1048589")).asByteArray();
        assertArrayEquals(java.util.Arrays.copyOfRange(data, 1048570, 1048590), slice);
    }

    @Test
    void rangesAnswer206AndUnsatisfiableOnes416() {
        s3.putObject(b -> b.bucket(bucket).key("r"), RequestBody.fromString("0123456789"));
        ResponseBytes<GetObjectResponse> mid = s3.getObjectAsBytes(b -> b.bucket(bucket).key("r").range("bytes=2-4"));
        assertEquals("234", mid.asUtf8String());
        assertEquals("bytes 2-4/10", mid.response().contentRange());
        assertEquals("789", s3.getObjectAsBytes(b -> b.bucket(bucket).key("r").range("bytes=-3")).asUtf8String());
        assertEquals("89", s3.getObjectAsBytes(b -> b.bucket(bucket).key("r").range("bytes=8-")).asUtf8String());
        assertEquals("89", s3.getObjectAsBytes(b -> b.bucket(bucket).key("r").range("bytes=8-100")).asUtf8String());
        S3Exception e = s3Error(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("r").range("bytes=10-")));
        assertEquals(416, e.statusCode());
        assertEquals("InvalidRange", e.awsErrorDetails().errorCode());
    }

    @Test
    void conditionalReadsAnswer304And412() {
        String etag = s3.putObject(b -> b.bucket(bucket).key("c"), RequestBody.fromString("v")).eTag();
        Instant modified = s3.headObject(b -> b.bucket(bucket).key("c")).lastModified();
        assertEquals("v", s3.getObjectAsBytes(b -> b.bucket(bucket).key("c").ifMatch(etag)).asUtf8String());
        S3Exception pre = s3Error(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("c").ifMatch("\"nope\"")));
        assertEquals(412, pre.statusCode());
        assertEquals("PreconditionFailed", pre.awsErrorDetails().errorCode());
        S3Exception notModified = s3Error(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("c").ifNoneMatch(etag)));
        assertEquals(304, notModified.statusCode());
        S3Exception notModifiedSince = s3Error(() -> s3.headObject(b -> b.bucket(bucket).key("c")
                .ifModifiedSince(modified.plusSeconds(60))));
        assertEquals(304, notModifiedSince.statusCode());
        assertEquals("v", s3.getObjectAsBytes(b -> b.bucket(bucket).key("c")
                .ifModifiedSince(modified.minusSeconds(60))).asUtf8String());
        S3Exception unmodified = s3Error(() -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("c")
                .ifUnmodifiedSince(modified.minusSeconds(60))));
        assertEquals(412, unmodified.statusCode());
        assertEquals("v", s3.getObjectAsBytes(b -> b.bucket(bucket).key("c")
                .ifMatch(etag).ifUnmodifiedSince(modified.minusSeconds(60))).asUtf8String());
    }

    @Test
    void responseOverridesReplaceHeaders() {
        s3.putObject(b -> b.bucket(bucket).key("o").contentType("text/plain"), RequestBody.fromString("v"));
        GetObjectResponse r = s3.getObjectAsBytes(b -> b.bucket(bucket).key("o")
                .responseContentType("image/png").responseContentDisposition("attachment; filename=x.png")
                .responseCacheControl("no-cache")).response();
        assertEquals("image/png", r.contentType());
        assertEquals("attachment; filename=x.png", r.contentDisposition());
        assertEquals("no-cache", r.cacheControl());
    }

    @Test
    void ifNoneMatchStarCreatesOnlyWhenAbsent() {
        s3.putObject(b -> b.bucket(bucket).key("once").ifNoneMatch("*"), RequestBody.fromString("first"));
        S3Exception e = s3Error(() -> s3.putObject(b -> b.bucket(bucket).key("once").ifNoneMatch("*"),
                RequestBody.fromString("second")));
        assertEquals(412, e.statusCode());
        assertEquals("first", s3.getObjectAsBytes(b -> b.bucket(bucket).key("once")).asUtf8String());
    }

    @Test
    void contentMd5IsVerified() throws Exception {
        byte[] data = "payload".getBytes(StandardCharsets.UTF_8);
        String good = java.util.Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
        s3.putObject(b -> b.bucket(bucket).key("md5").contentMD5(good), RequestBody.fromBytes(data));
        String wrong = java.util.Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(new byte[1]));
        S3Exception bad = s3Error(() -> s3.putObject(b -> b.bucket(bucket).key("md5-bad").contentMD5(wrong),
                RequestBody.fromBytes(data)));
        assertEquals("BadDigest", bad.awsErrorDetails().errorCode());
        S3Exception invalid = s3Error(() -> s3.putObject(b -> b.bucket(bucket).key("md5-bad").contentMD5("abc"),
                RequestBody.fromBytes(data)));
        assertEquals("InvalidDigest", invalid.awsErrorDetails().errorCode());
        assertThrows(NoSuchKeyException.class, () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("md5-bad")));
    }

    @Test
    void tooLargeObjectsAreRefusedAndStoreNothing() {
        byte[] data = new byte[(int) MAX_OBJECT_SIZE + 1];
        S3Exception e = s3Error(() -> s3.putObject(b -> b.bucket(bucket).key("huge"), RequestBody.fromBytes(data)));
        assertEquals("EntityTooLarge", e.awsErrorDetails().errorCode());
        assertThrows(NoSuchKeyException.class, () -> s3.headObject(b -> b.bucket(bucket).key("huge")));
    }

    @Test
    void keysAreStoredExactly() {
        String[] keys = {"..", "a//b", "with space", "100%", "ü/ñ", "\uD83D\uDE00", "a+b", "q?x=1", "h#f", "./x", "a/../b"};
        for (String k : keys) {
            s3.putObject(b -> b.bucket(bucket).key(k), RequestBody.fromString("v:" + k));
        }
        for (String k : keys) {
            assertEquals("v:" + k, s3.getObjectAsBytes(b -> b.bucket(bucket).key(k)).asUtf8String(), k);
        }
        var listed = s3.listObjectsV2(b -> b.bucket(bucket)).contents().stream().map(o -> o.key()).sorted().toList();
        assertEquals(java.util.Arrays.stream(keys).sorted().toList(), listed);
    }

    @Test
    void wrongCredentialsAreRefused() {
        try (var wrongSecret = client(ACCESS_KEY, "not-the-secret")) {
            S3Exception e = s3Error(() -> wrongSecret.listBuckets());
            assertEquals(403, e.statusCode());
            assertEquals("SignatureDoesNotMatch", e.awsErrorDetails().errorCode());
        }
        try (var unknown = client("AKIDUNKNOWN000000000", SECRET_KEY)) {
            S3Exception e = s3Error(() -> unknown.putObject(b -> b.bucket(bucket).key("x"), RequestBody.fromString("x")));
            assertEquals(403, e.statusCode());
            assertEquals("InvalidAccessKeyId", e.awsErrorDetails().errorCode());
        }
    }

    @Test
    void asyncClientPutsAndGets() throws Exception {
        byte[] data = new byte[200_000];
        new Random(2).nextBytes(data);
        s3Async().putObject(b -> b.bucket(bucket).key("async"),
                software.amazon.awssdk.core.async.AsyncRequestBody.fromBytes(data)).get();
        byte[] back = s3Async().getObject(b -> b.bucket(bucket).key("async"),
                software.amazon.awssdk.core.async.AsyncResponseTransformer.toBytes()).get().asByteArray();
        assertArrayEquals(data, back);
    }
}
