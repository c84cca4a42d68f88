package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketCannedACL;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.ListBucketsResponse;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * Requests as today's clients send them, answered as S3 answers them: bodies in HTTP chunks
 * without a length, {@code aws-chunked} left out of the stored Content-Encoding, Expect values
 * other than 100-continue (417, as RFC 9110 allows), expired presigned PUTs, CreateBucket of a bucket one owns (us-east-1),
 * ListBuckets in pages, an empty delimiter, and {@code encoding-type=url} on every field S3
 * encodes.
 */
class ClientRequestsTest extends ServiceTestSupport {
    private String bucket;
    private PresignedRaw raw;

    @BeforeAll
    void setUp() {
        bucket = uniqueBucket("clients");
        s3.createBucket(b -> b.bucket(bucket));
        raw = new PresignedRaw(port, ACCESS_KEY, SECRET_KEY);
    }

    @AfterAll
    void tearDown() {
        raw.close();
    }

    private String body(String key) {
        return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
    }

    @Test
    void aChunkedBodyWithoutContentLengthIsStoredWhole() throws Exception {
        RawS3.Response r = raw.putChunked(raw.put(bucket, "chunked", Duration.ofMinutes(5)), Map.of(),
                "first ".getBytes(StandardCharsets.UTF_8), "second ".getBytes(StandardCharsets.UTF_8),
                "third".getBytes(StandardCharsets.UTF_8));
        assertEquals(200, r.status(), r.body());
        assertEquals("first second third", body("chunked"));

        byte[] big = seededBytes((int) MAX_OBJECT_SIZE / 2, 5);
        byte[][] chunks = new byte[4][];
        for (int i = 0; i < 4; i++) {
            chunks[i] = java.util.Arrays.copyOfRange(big, i * big.length / 4, (i + 1) * big.length / 4);
        }
        assertEquals(200, raw.putChunked(raw.put(bucket, "chunked-big", Duration.ofMinutes(5)), Map.of(), chunks).status());
        assertTrue(java.util.Arrays.equals(big, s3.getObjectAsBytes(b -> b.bucket(bucket).key("chunked-big")).asByteArray()));

        byte[] tooBig = new byte[(int) MAX_OBJECT_SIZE / 2 + 1];
        RawS3.Response over = raw.putChunked(raw.put(bucket, "chunked-over", Duration.ofMinutes(5)), Map.of(),
                tooBig, tooBig);
        assertEquals(400, over.status());
        assertTrue(over.body().contains("EntityTooLarge"), over.body());
    }

    @Test
    void awsChunkedIsNotPartOfTheStoredEncoding() throws Exception {
        s3.putObject(b -> b.bucket(bucket).key("gz").contentEncoding("gzip"), RequestBody.fromString("zipped"));
        assertEquals("gzip", s3.headObject(b -> b.bucket(bucket).key("gz")).contentEncoding());

        RawS3 signed = new RawS3(port, ACCESS_KEY, SECRET_KEY);
        byte[] data = "framed".getBytes(StandardCharsets.UTF_8);
        RawS3.Response only = signed.send(signed.signPut("/" + bucket + "/framed", data, true, true,
                Map.of("Content-Encoding", "aws-chunked")));
        assertEquals(200, only.status(), only.body());
        assertNull(s3.headObject(b -> b.bucket(bucket).key("framed")).contentEncoding());
        RawS3.Response both = signed.send(signed.signPut("/" + bucket + "/framed-gz", data, true, true,
                Map.of("Content-Encoding", "aws-chunked,gzip")));
        assertEquals(200, both.status(), both.body());
        assertEquals("gzip", s3.headObject(b -> b.bucket(bucket).key("framed-gz")).contentEncoding());
        assertEquals("framed", body("framed-gz"));
    }

    /**
     * S3 ignores an expectation it does not know (RFC 9110 would allow a 417): the request is
     * handled as if the header were absent, and the header stays in the request as sent.
     */
    @Test
    void anExpectationOtherThan100ContinueIsIgnored() throws Exception {
        for (String expect : List.of("200", "something-else", "100-continue, foo", "")) {
            String key = "expect-" + expect.replaceAll("[^a-z0-9]", "_");
            RawS3.Response r = raw.put(raw.put(bucket, key, Duration.ofMinutes(5)), Map.of("Expect", expect),
                    ("expected " + expect).getBytes(StandardCharsets.UTF_8));
            assertEquals(200, r.status(), "Expect: " + expect + ": " + r.body());
            assertEquals("expected " + expect, s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String());
        }
        for (String expect : List.of("100-continue", "100-Continue")) {
            RawS3.Response continued = raw.put(raw.put(bucket, "expect-continue", Duration.ofMinutes(5)),
                    Map.of("Expect", expect), "expected".getBytes(StandardCharsets.UTF_8));
            assertEquals(200, continued.status(), continued.body());
        }
    }

    /**
     * Header values reach the signature check and the object as sent: Jetty's header cache knows
     * common Content-Types in another spelling of the charset, which broke the signature of
     * rclone's and boto3's uploads of text.
     */
    @Test
    void contentTypesAreKeptAsSent() {
        for (String type : List.of("text/plain; charset=utf-8", "text/html;charset=utf-8", "application/json; charset=UTF-8",
                "text/plain; charset=iso-8859-1", "TEXT/PLAIN; Charset=Utf-8")) {
            s3.putObject(b -> b.bucket(bucket).key("typed").contentType(type), RequestBody.fromString("typed"));
            assertEquals(type, s3.headObject(b -> b.bucket(bucket).key("typed")).contentType());
        }
    }

    @Test
    void aCopyOntoItselfIsLegalWhenItNamesAStorageClass() {
        s3.putObject(b -> b.bucket(bucket).key("self").contentType("text/plain"), RequestBody.fromString("self"));
        S3Exception same = org.junit.jupiter.api.Assertions.assertThrows(S3Exception.class, () -> s3.copyObject(b -> b
                .sourceBucket(bucket).sourceKey("self").destinationBucket(bucket).destinationKey("self")));
        assertEquals(400, same.statusCode());
        s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("self").destinationBucket(bucket).destinationKey("self")
                .storageClass(StorageClass.STANDARD));
        assertEquals("text/plain", s3.headObject(b -> b.bucket(bucket).key("self")).contentType());
        assertEquals("self", s3.getObjectAsBytes(b -> b.bucket(bucket).key("self")).asUtf8String());
    }

    @Test
    void anExpiredPresignedPutIsRefused() throws Exception {
        String target = raw.put(bucket, "late", Duration.ofSeconds(1));
        Thread.sleep(2100);
        RawS3.Response r = raw.put(target, Map.of(), "late".getBytes(StandardCharsets.UTF_8));
        assertEquals(403, r.status());
        assertTrue(r.body().contains("<Code>AccessDenied</Code>") && r.body().contains("expired"), r.body());
        assertEquals(0, s3.listObjectsV2(b -> b.bucket(bucket).prefix("late")).keyCount());
    }

    @Test
    void creatingABucketOneOwnsSucceedsInUsEast1AndResetsItsAcl() {
        String name = uniqueBucket("again");
        s3.createBucket(b -> b.bucket(name).acl(BucketCannedACL.PUBLIC_READ));
        s3.putObject(b -> b.bucket(name).key("kept"), RequestBody.fromString("kept"));
        assertEquals(200, s3.createBucket(b -> b.bucket(name)).sdkHttpResponse().statusCode());
        assertTrue(s3.getBucketAcl(b -> b.bucket(name)).grants().stream()
                .noneMatch(g -> g.permission() == Permission.READ), "the ACL is reset to private");
        assertEquals("kept", s3.getObjectAsBytes(b -> b.bucket(name).key("kept")).asUtf8String());
    }

    @Test
    void listBucketsComesInPages() {
        String stem = "paged-" + Long.toHexString(System.nanoTime() & 0xFFFFF);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String name = stem + "-" + i;
            s3.createBucket(b -> b.bucket(name));
            names.add(name);
        }
        ListBucketsResponse first = s3.listBuckets(b -> b.prefix(stem).maxBuckets(2));
        assertEquals(names.subList(0, 2), first.buckets().stream().map(x -> x.name()).toList());
        assertEquals(stem, first.prefix());
        assertTrue(first.continuationToken() != null);
        List<String> all = new ArrayList<>();
        s3.listBucketsPaginator(b -> b.prefix(stem).maxBuckets(2)).buckets().forEach(x -> all.add(x.name()));
        assertEquals(names, all);
        ListBucketsResponse whole = s3.listBuckets(b -> b.prefix(stem));
        assertEquals(5, whole.buckets().size());
        assertNull(whole.continuationToken());
        assertEquals("InvalidArgument", org.junit.jupiter.api.Assertions.assertThrows(
                software.amazon.awssdk.services.s3.model.S3Exception.class,
                () -> s3.listBuckets(b -> b.maxBuckets(0))).awsErrorDetails().errorCode());
    }

    @Test
    void anEmptyDelimiterIsNoDelimiter() {
        for (String k : List.of("d/a", "d/b", "e")) {
            s3.putObject(b -> b.bucket(bucket).key("delim/" + k), RequestBody.fromString(k));
        }
        var v2 = s3.listObjectsV2(b -> b.bucket(bucket).prefix("delim/").delimiter(""));
        assertEquals(3, v2.contents().size());
        assertTrue(v2.commonPrefixes().isEmpty());
        assertNull(v2.delimiter());
        var v1 = s3.listObjects(b -> b.bucket(bucket).prefix("delim/").delimiter(""));
        assertEquals(3, v1.contents().size());
        assertNull(v1.delimiter());
        var versions = s3.listObjectVersions(b -> b.bucket(bucket).prefix("delim/").delimiter(""));
        assertEquals(3, versions.versions().size());
    }

    /**
     * Every value holds a {@code %}: a field the service did not encode would come back altered
     * by the SDK's decoding of it.
     */
    @Test
    void urlEncodingCoversEveryFieldS3Encodes() {
        String p = "enc %41+/";
        for (String k : List.of("a%20b", "c d", "e/f%2F")) {
            s3.putObject(b -> b.bucket(bucket).key(p + k), RequestBody.fromString(k));
        }
        var v2 = s3.listObjectsV2(b -> b.bucket(bucket).prefix(p).delimiter("%2F").startAfter(p + "a%20b")
                .maxKeys(1).encodingType(EncodingType.URL));
        assertEquals(p, v2.prefix());
        assertEquals("%2F", v2.delimiter());
        assertEquals(p + "a%20b", v2.startAfter());
        assertEquals(p + "c d", v2.contents().get(0).key());

        var v1 = s3.listObjects(b -> b.bucket(bucket).prefix(p).delimiter("/").marker(p + "a%20b").maxKeys(1)
                .encodingType(EncodingType.URL));
        assertEquals(p + "a%20b", v1.marker());
        assertEquals(p + "c d", v1.contents().get(0).key());
        assertEquals(p + "c d", v1.nextMarker());
        assertEquals("/", v1.delimiter());

        var versions = s3.listObjectVersions(b -> b.bucket(bucket).prefix(p).keyMarker(p + "a%20b").maxKeys(1)
                .delimiter("/").encodingType(EncodingType.URL));
        assertEquals(p + "a%20b", versions.keyMarker());
        assertEquals(p + "c d", versions.nextKeyMarker());
        assertEquals(p + "c d", versions.versions().get(0).key());
        var rolled = s3.listObjectsV2(b -> b.bucket(bucket).prefix(p).delimiter("/").encodingType(EncodingType.URL));
        assertEquals(List.of(p + "e/"), rolled.commonPrefixes().stream().map(x -> x.prefix()).toList());

        String u1 = s3.createMultipartUpload(b -> b.bucket(bucket).key(p + "u%1")).uploadId();
        String u2 = s3.createMultipartUpload(b -> b.bucket(bucket).key(p + "u%2")).uploadId();
        var uploads = s3.listMultipartUploads(b -> b.bucket(bucket).prefix(p).keyMarker(p + "u%0").maxUploads(1)
                .encodingType(EncodingType.URL));
        assertEquals(p, uploads.prefix());
        assertEquals(p + "u%0", uploads.keyMarker());
        assertEquals(p + "u%1", uploads.uploads().get(0).key());
        assertEquals(p + "u%1", uploads.nextKeyMarker());
        s3.abortMultipartUpload(b -> b.bucket(bucket).key(p + "u%1").uploadId(u1));
        s3.abortMultipartUpload(b -> b.bucket(bucket).key(p + "u%2").uploadId(u2));
    }
}
