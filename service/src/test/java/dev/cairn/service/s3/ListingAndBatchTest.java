package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MetadataDirective;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/** Listings (V2, V1, versions), DeleteObjects and CopyObject through the AWS SDK. */
class ListingAndBatchTest extends ServiceTestSupport {
    private static final List<String> KEYS = List.of("a/1", "a/2", "a/b/3", "a/b/4", "b/5", "c", "d e/6", "f+g", "h%i",
            "ü/7", "\uD83D\uDE00");
    private String bucket;

    @BeforeAll
    void fill() {
        bucket = uniqueBucket("listing");
        s3.createBucket(b -> b.bucket(bucket));
        for (String k : KEYS) {
            s3.putObject(b -> b.bucket(bucket).key(k), RequestBody.fromString(k));
        }
    }

    @Test
    void listV2PaginatesWithDelimiterAndPrefix() {
        ListObjectsV2Response top = s3.listObjectsV2(b -> b.bucket(bucket).delimiter("/"));
        assertEquals(List.of("c", "f+g", "h%i", "\uD83D\uDE00"), top.contents().stream().map(S3Object::key).toList());
        assertEquals(List.of("a/", "b/", "d e/", "ü/"), top.commonPrefixes().stream().map(CommonPrefix::prefix).toList());
        assertFalse(top.isTruncated());
        assertEquals(8, top.keyCount());

        ListObjectsV2Response underA = s3.listObjectsV2(b -> b.bucket(bucket).prefix("a/").delimiter("/"));
        assertEquals(List.of("a/1", "a/2"), underA.contents().stream().map(S3Object::key).toList());
        assertEquals(List.of("a/b/"), underA.commonPrefixes().stream().map(CommonPrefix::prefix).toList());

        List<String> all = new ArrayList<>();
        int pages = 0;
        for (ListObjectsV2Response page : s3.listObjectsV2Paginator(b -> b.bucket(bucket).maxKeys(2))) {
            pages++;
            assertTrue(page.keyCount() <= 2);
            page.contents().forEach(o -> all.add(o.key()));
        }
        assertEquals(6, pages);
        assertEquals(sortedUtf8(KEYS), all);

        List<String> rolled = new ArrayList<>();
        for (ListObjectsV2Response page : s3.listObjectsV2Paginator(b -> b.bucket(bucket).delimiter("/").maxKeys(1))) {
            page.contents().forEach(o -> rolled.add(o.key()));
            page.commonPrefixes().forEach(p -> rolled.add(p.prefix()));
        }
        assertEquals(List.of("a/", "b/", "c", "d e/", "f+g", "h%i", "ü/", "\uD83D\uDE00"), rolled);

        ListObjectsV2Response after = s3.listObjectsV2(b -> b.bucket(bucket).startAfter("b/5"));
        assertEquals("c", after.contents().get(0).key());
        S3Object first = s3.listObjectsV2(b -> b.bucket(bucket).prefix("c")).contents().get(0);
        assertEquals(1, first.size());
        assertTrue(first.eTag().startsWith("\""));
        assertTrue(s3.listObjectsV2(b -> b.bucket(bucket).prefix("zzz")).contents().isEmpty());
        S3Exception bad = assertThrows(S3Exception.class, () -> s3.listObjectsV2(b -> b.bucket(bucket).maxKeys(-1)));
        assertEquals("InvalidArgument", bad.awsErrorDetails().errorCode());
    }

    @Test
    void urlEncodingTypeRoundTripsOddKeys() {
        ListObjectsV2Response r = s3.listObjectsV2(b -> b.bucket(bucket).encodingType(EncodingType.URL));
        assertEquals(sortedUtf8(KEYS), r.contents().stream().map(S3Object::key).toList());
        ListObjectsV2Response p = s3.listObjectsV2(b -> b.bucket(bucket).encodingType(EncodingType.URL)
                .delimiter("/").prefix("d e/"));
        assertEquals(List.of("d e/6"), p.contents().stream().map(S3Object::key).toList());
    }

    @Test
    void listV1UsesMarkers() {
        List<String> all = new ArrayList<>();
        for (ListObjectsResponse page : List.of(s3.listObjects(b -> b.bucket(bucket).maxKeys(4)))) {
            page.contents().forEach(o -> all.add(o.key()));
            assertTrue(page.isTruncated());
        }
        String marker = all.get(all.size() - 1);
        ListObjectsResponse rest = s3.listObjects(b -> b.bucket(bucket).marker(marker));
        rest.contents().forEach(o -> all.add(o.key()));
        assertFalse(rest.isTruncated());
        assertEquals(sortedUtf8(KEYS), all);
        ListObjectsResponse delimited = s3.listObjects(b -> b.bucket(bucket).delimiter("/").maxKeys(2));
        assertEquals(List.of("a/", "b/"), delimited.commonPrefixes().stream().map(CommonPrefix::prefix).toList());
        assertEquals("b/", delimited.nextMarker());
    }

    @Test
    void versionsAndVersioningAnswerAsAnUnversionedBucket() {
        assertNull(s3.getBucketVersioning(b -> b.bucket(bucket)).status());
        ListObjectVersionsResponse v = s3.listObjectVersions(b -> b.bucket(bucket).prefix("a/"));
        assertEquals(List.of("a/1", "a/2", "a/b/3", "a/b/4"), v.versions().stream().map(x -> x.key()).toList());
        assertTrue(v.versions().stream().allMatch(x -> "null".equals(x.versionId()) && x.isLatest()));
        assertTrue(v.deleteMarkers().isEmpty());
        assertEquals("a/1", s3.getObjectAsBytes(b -> b.bucket(bucket).key("a/1").versionId("null")).asUtf8String());
        S3Exception e = assertThrows(S3Exception.class,
                () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("a/1").versionId("-ENoX3KbVwL2fQ8c")));
        assertEquals("NoSuchVersion", e.awsErrorDetails().errorCode());
        S3Exception malformed = assertThrows(S3Exception.class,
                () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("a/1").versionId("v2")));
        assertEquals("InvalidArgument", malformed.awsErrorDetails().errorCode());
        String location = s3.getBucketLocation(b -> b.bucket(bucket)).locationConstraintAsString();
        assertTrue(location == null || location.isEmpty(), location);
    }

    @Test
    void deleteObjectsDeletesMany() {
        String b2 = uniqueBucket("batch");
        s3.createBucket(b -> b.bucket(b2));
        for (int i = 0; i < 5; i++) {
            String k = "k" + i;
            s3.putObject(b -> b.bucket(b2).key(k), RequestBody.fromString(k));
        }
        DeleteObjectsResponse r = s3.deleteObjects(b -> b.bucket(b2).delete(d -> d.objects(
                ObjectIdentifier.builder().key("k0").build(), ObjectIdentifier.builder().key("k1").build(),
                ObjectIdentifier.builder().key("missing").build(),
                ObjectIdentifier.builder().key("k2").versionId("v9").build())));
        assertEquals(new TreeSet<>(List.of("k0", "k1", "missing")),
                new TreeSet<>(r.deleted().stream().map(d -> d.key()).toList()));
        assertEquals(List.of("NoSuchVersion"), r.errors().stream().map(e -> e.code()).toList());
        assertEquals(List.of("k2", "k3", "k4"),
                s3.listObjectsV2(b -> b.bucket(b2)).contents().stream().map(S3Object::key).toList());
        DeleteObjectsResponse quiet = s3.deleteObjects(b -> b.bucket(b2).delete(d -> d.quiet(true)
                .objects(ObjectIdentifier.builder().key("k2").build())));
        assertTrue(quiet.deleted().isEmpty());
        List<ObjectIdentifier> tooMany = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            tooMany.add(ObjectIdentifier.builder().key("x" + i).build());
        }
        S3Exception e = assertThrows(S3Exception.class,
                () -> s3.deleteObjects(b -> b.bucket(b2).delete(d -> d.objects(tooMany))));
        assertEquals("MalformedXML", e.awsErrorDetails().errorCode());
    }

    @Test
    void copyObjectKeepsOrReplacesMetadata() {
        String b2 = uniqueBucket("copy");
        s3.createBucket(b -> b.bucket(b2));
        String etag = s3.putObject(b -> b.bucket(b2).key("src").contentType("image/png").metadata(Map.of("m", "1")),
                RequestBody.fromString("picture")).eTag();
        var copied = s3.copyObject(b -> b.sourceBucket(b2).sourceKey("src").destinationBucket(bucket).destinationKey("copy/keep"));
        assertEquals(etag, copied.copyObjectResult().eTag());
        var kept = s3.headObject(b -> b.bucket(bucket).key("copy/keep"));
        assertEquals("image/png", kept.contentType());
        assertEquals(Map.of("m", "1"), kept.metadata());
        s3.copyObject(b -> b.sourceBucket(b2).sourceKey("src").destinationBucket(b2).destinationKey("src")
                .metadataDirective(MetadataDirective.REPLACE).contentType("text/plain").metadata(Map.of("n", "2")));
        var replaced = s3.headObject(b -> b.bucket(b2).key("src"));
        assertEquals("text/plain", replaced.contentType());
        assertEquals(Map.of("n", "2"), replaced.metadata());
        assertEquals("picture", s3.getObjectAsBytes(b -> b.bucket(b2).key("src")).asUtf8String());
        S3Exception self = assertThrows(S3Exception.class, () -> s3.copyObject(b -> b.sourceBucket(b2).sourceKey("src")
                .destinationBucket(b2).destinationKey("src")));
        assertEquals("InvalidRequest", self.awsErrorDetails().errorCode());
        assertThrows(NoSuchKeyException.class, () -> s3.copyObject(b -> b.sourceBucket(b2).sourceKey("nope")
                .destinationBucket(b2).destinationKey("x")));
        S3Exception pre = assertThrows(S3Exception.class, () -> s3.copyObject(b -> b.sourceBucket(b2).sourceKey("src")
                .destinationBucket(b2).destinationKey("y").copySourceIfMatch("\"other\"")));
        assertEquals(412, pre.statusCode());
        s3.deleteObject(b -> b.bucket(bucket).key("copy/keep"));
    }

    private static List<String> sortedUtf8(List<String> keys) {
        List<String> sorted = new ArrayList<>(keys);
        sorted.sort(dev.cairn.store.Utf8Order.COMPARATOR);
        return sorted;
    }
}
