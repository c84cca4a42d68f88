package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteMarkerEntry;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.EncodingType;
import software.amazon.awssdk.services.s3.model.GetBucketVersioningResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectVersionsResponse;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.ObjectVersion;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Bucket versioning through the AWS SDK for Java v2, answered as S3 answers it
 * ({@link VersioningOnCassandraTest}: on the Cassandra store).
 */
class VersioningTest extends ServiceTestSupport {

    private String versionedBucket(String stem) {
        String bucket = uniqueBucket(stem);
        s3.createBucket(b -> b.bucket(bucket));
        s3.putBucketVersioning(b -> b.bucket(bucket).versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        return bucket;
    }

    private String get(String bucket, String key, String versionId) {
        return s3.getObjectAsBytes(b -> b.bucket(bucket).key(key).versionId(versionId)).asUtf8String();
    }

    private static int status(S3Exception e) {
        return e.statusCode();
    }

    @Test
    void aNewBucketAnswersAnEmptyConfigurationThenItsStatus() {
        String bucket = uniqueBucket("vconf");
        s3.createBucket(b -> b.bucket(bucket));
        GetBucketVersioningResponse none = s3.getBucketVersioning(b -> b.bucket(bucket));
        assertNull(none.status());
        assertNull(s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x")).versionId());
        s3.putBucketVersioning(b -> b.bucket(bucket).versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED)));
        assertEquals(BucketVersioningStatus.ENABLED, s3.getBucketVersioning(b -> b.bucket(bucket)).status());
        s3.putBucketVersioning(b -> b.bucket(bucket).versioningConfiguration(c -> c.status(BucketVersioningStatus.SUSPENDED)));
        assertEquals(BucketVersioningStatus.SUSPENDED, s3.getBucketVersioning(b -> b.bucket(bucket)).status());
        // The object written before versioning is the version "null".
        assertEquals("null", s3.headObject(b -> b.bucket(bucket).key("k")).versionId());
        assertEquals("x", get(bucket, "k", "null"));
        S3Exception noBucket = assertThrows(S3Exception.class, () -> s3.putBucketVersioning(b -> b.bucket(uniqueBucket("none"))
                .versioningConfiguration(c -> c.status(BucketVersioningStatus.ENABLED))));
        assertEquals("NoSuchBucket", noBucket.awsErrorDetails().errorCode());
    }

    @Test
    void everyWriteKeepsAVersionAndEachReadsBackById() {
        String bucket = versionedBucket("vput");
        PutObjectResponse one = s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("one"));
        PutObjectResponse two = s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("two"));
        assertNotNull(one.versionId());
        assertNotEquals(one.versionId(), two.versionId());
        assertTrue(two.versionId().compareTo(one.versionId()) < 0, "newer ids sort first");
        assertEquals("two", get(bucket, "k", null));
        assertEquals("one", get(bucket, "k", one.versionId()));
        HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key("k").versionId(one.versionId()));
        assertEquals(one.versionId(), head.versionId());
        assertEquals(one.eTag(), head.eTag());
        assertEquals(two.versionId(), s3.getObject(b -> b.bucket(bucket).key("k")).response().versionId());

        S3Exception missing = assertThrows(S3Exception.class, () -> get(bucket, "k", "-ENoX3KbVwL2fQ8c"));
        assertEquals("NoSuchVersion", missing.awsErrorDetails().errorCode());
        assertEquals(404, status(missing));
        S3Exception malformed = assertThrows(S3Exception.class, () -> get(bucket, "k", "v2"));
        assertEquals("InvalidArgument", malformed.awsErrorDetails().errorCode());
        assertEquals(400, status(malformed));
    }

    @Test
    void deletesMakeMarkersAndAVersionGoesForGood() {
        String bucket = versionedBucket("vdel");
        String one = s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("one")).versionId();
        DeleteObjectResponse marker = s3.deleteObject(b -> b.bucket(bucket).key("k"));
        assertTrue(marker.deleteMarker());
        assertNotNull(marker.versionId());

        S3Exception gone = assertThrows(S3Exception.class, () -> get(bucket, "k", null));
        assertEquals("NoSuchKey", gone.awsErrorDetails().errorCode());
        assertEquals("true", gone.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-delete-marker").orElse(null));
        assertEquals(marker.versionId(),
                gone.awsErrorDetails().sdkHttpResponse().firstMatchingHeader("x-amz-version-id").orElse(null));
        S3Exception onMarker = assertThrows(S3Exception.class, () -> get(bucket, "k", marker.versionId()));
        assertEquals(405, status(onMarker));
        assertEquals("MethodNotAllowed", onMarker.awsErrorDetails().errorCode());
        assertEquals("one", get(bucket, "k", one));
        assertTrue(s3.listObjectsV2(b -> b.bucket(bucket)).contents().isEmpty(), "a marker hides the key from listings");

        DeleteObjectResponse unmarked = s3.deleteObject(b -> b.bucket(bucket).key("k").versionId(marker.versionId()));
        assertTrue(unmarked.deleteMarker());
        assertEquals(marker.versionId(), unmarked.versionId());
        assertEquals("one", get(bucket, "k", null));

        DeleteObjectResponse removed = s3.deleteObject(b -> b.bucket(bucket).key("k").versionId(one));
        assertEquals(one, removed.versionId());
        assertNull(removed.deleteMarker());
        S3Exception noVersion = assertThrows(S3Exception.class, () -> get(bucket, "k", one));
        assertEquals("NoSuchVersion", noVersion.awsErrorDetails().errorCode());
        assertTrue(s3.listObjectVersions(b -> b.bucket(bucket)).versions().isEmpty());
        s3.deleteBucket(b -> b.bucket(bucket));
    }

    @Test
    void aBucketWithOnlyOldVersionsIsNotEmpty() {
        String bucket = versionedBucket("vempty");
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("one"));
        s3.deleteObject(b -> b.bucket(bucket).key("k"));
        S3Exception notEmpty = assertThrows(S3Exception.class, () -> s3.deleteBucket(b -> b.bucket(bucket)));
        assertEquals("BucketNotEmpty", notEmpty.awsErrorDetails().errorCode());
    }

    @Test
    void suspendedWritesReplaceTheNullVersionAndKeepTheOthers() {
        String bucket = versionedBucket("vsusp");
        String kept = s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("kept")).versionId();
        s3.putBucketVersioning(b -> b.bucket(bucket).versioningConfiguration(c -> c.status(BucketVersioningStatus.SUSPENDED)));
        assertEquals("null", s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("n1")).versionId());
        assertEquals("null", s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("n2")).versionId());
        List<ObjectVersion> versions = s3.listObjectVersions(b -> b.bucket(bucket)).versions();
        assertEquals(List.of("null", kept), versions.stream().map(ObjectVersion::versionId).toList());
        assertEquals("n2", get(bucket, "k", "null"));
        DeleteObjectResponse marker = s3.deleteObject(b -> b.bucket(bucket).key("k"));
        assertTrue(marker.deleteMarker());
        assertEquals("null", marker.versionId());
        ListObjectVersionsResponse after = s3.listObjectVersions(b -> b.bucket(bucket));
        assertEquals(List.of(kept), after.versions().stream().map(ObjectVersion::versionId).toList());
        assertEquals(List.of("null"), after.deleteMarkers().stream().map(DeleteMarkerEntry::versionId).toList());
        assertTrue(after.deleteMarkers().get(0).isLatest());
    }

    @Test
    void copiesReadTheVersionNamed() {
        String bucket = versionedBucket("vcopy");
        String one = s3.putObject(b -> b.bucket(bucket).key("src"), RequestBody.fromString("one")).versionId();
        s3.putObject(b -> b.bucket(bucket).key("src"), RequestBody.fromString("two"));
        CopyObjectResponse copy = s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("src").sourceVersionId(one)
                .destinationBucket(bucket).destinationKey("dst"));
        assertEquals(one, copy.copySourceVersionId());
        assertNotNull(copy.versionId());
        assertEquals("one", get(bucket, "dst", null));
        // Restoring an old version: a copy onto its own key.
        s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("src").sourceVersionId(one)
                .destinationBucket(bucket).destinationKey("src"));
        assertEquals("one", get(bucket, "src", null));
        assertEquals(3, s3.listObjectVersions(b -> b.bucket(bucket).prefix("src")).versions().size());

        String marker = s3.deleteObject(b -> b.bucket(bucket).key("src")).versionId();
        S3Exception fromMarker = assertThrows(S3Exception.class, () -> s3.copyObject(b -> b.sourceBucket(bucket)
                .sourceKey("src").sourceVersionId(marker).destinationBucket(bucket).destinationKey("x")));
        assertEquals("InvalidRequest", fromMarker.awsErrorDetails().errorCode());
        S3Exception hidden = assertThrows(S3Exception.class, () -> s3.copyObject(b -> b.sourceBucket(bucket)
                .sourceKey("src").destinationBucket(bucket).destinationKey("x")));
        assertEquals("NoSuchKey", hidden.awsErrorDetails().errorCode());
    }

    @Test
    void conditionalWritesApplyToTheCurrentVersion() {
        String bucket = versionedBucket("vcond");
        String etag1 = s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("one")).eTag();
        String etag2 = s3.putObject(b -> b.bucket(bucket).key("k").ifMatch(etag1), RequestBody.fromString("two")).eTag();
        S3Exception stale = assertThrows(S3Exception.class, () -> s3.putObject(b -> b.bucket(bucket).key("k").ifMatch(etag1),
                RequestBody.fromString("three")));
        assertEquals(412, status(stale));
        S3Exception exists = assertThrows(S3Exception.class, () -> s3.putObject(b -> b.bucket(bucket).key("k").ifNoneMatch("*"),
                RequestBody.fromString("three")));
        assertEquals(412, status(exists));
        s3.deleteObject(b -> b.bucket(bucket).key("k"));
        // Behind a delete marker the key is absent.
        s3.putObject(b -> b.bucket(bucket).key("k").ifNoneMatch("*"), RequestBody.fromString("four"));
        assertEquals("four", get(bucket, "k", null));
        assertNotEquals(etag1, etag2);
    }

    @Test
    void batchDeletesNameVersions() {
        String bucket = versionedBucket("vbatch");
        String a1 = s3.putObject(b -> b.bucket(bucket).key("a"), RequestBody.fromString("a1")).versionId();
        s3.putObject(b -> b.bucket(bucket).key("a"), RequestBody.fromString("a2"));
        s3.putObject(b -> b.bucket(bucket).key("b"), RequestBody.fromString("b1"));
        DeleteObjectsResponse r = s3.deleteObjects(b -> b.bucket(bucket).delete(d -> d.objects(
                ObjectIdentifier.builder().key("a").versionId(a1).build(),
                ObjectIdentifier.builder().key("b").build())));
        assertEquals(2, r.deleted().size());
        assertEquals(a1, r.deleted().get(0).versionId());
        assertTrue(r.deleted().get(1).deleteMarker());
        assertNotNull(r.deleted().get(1).deleteMarkerVersionId());
        assertEquals("a2", get(bucket, "a", null));
        S3Exception noA1 = assertThrows(S3Exception.class, () -> get(bucket, "a", a1));
        assertEquals("NoSuchVersion", noA1.awsErrorDetails().errorCode());
    }

    @Test
    void versionListingsPageByKeyAndVersion() {
        String bucket = versionedBucket("vlist");
        List<String> expected = new ArrayList<>();
        for (String key : List.of("a b", "dir/x", "dir/y", "z")) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                ids.add(0, key + "@" + s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString(key)).versionId());
            }
            expected.addAll(ids);
        }
        String marker = s3.deleteObject(b -> b.bucket(bucket).key("z")).versionId();
        expected.add(expected.size() - 3, "z@" + marker);

        List<String> listed = new ArrayList<>();
        String keyMarker = null;
        String versionMarker = null;
        int pages = 0;
        while (true) {
            String km = keyMarker;
            String vm = versionMarker;
            ListObjectVersionsResponse page = s3.listObjectVersions(b -> b.bucket(bucket).maxKeys(4).keyMarker(km)
                    .versionIdMarker(vm));
            pages++;
            List<String> here = new ArrayList<>();
            page.versions().forEach(v -> here.add(v.key() + "@" + v.versionId()));
            page.deleteMarkers().forEach(d -> here.add(d.key() + "@" + d.versionId()));
            assertEquals(page.versions().size() + page.deleteMarkers().size(), here.size());
            listed.addAll(here);
            if (!page.isTruncated()) {
                break;
            }
            keyMarker = page.nextKeyMarker();
            versionMarker = page.nextVersionIdMarker();
        }
        assertEquals(4, pages);
        listed.sort(null);
        List<String> sorted = new ArrayList<>(expected);
        sorted.sort(null);
        assertEquals(sorted, listed);

        ListObjectVersionsResponse all = s3.listObjectVersions(b -> b.bucket(bucket));
        assertTrue(all.deleteMarkers().get(0).isLatest());
        assertFalse(all.versions().stream().anyMatch(v -> v.key().equals("z") && v.isLatest()));
        assertEquals(3, all.versions().stream().filter(ObjectVersion::isLatest).count());

        ListObjectVersionsResponse rolled = s3.listObjectVersions(b -> b.bucket(bucket).delimiter("/"));
        assertEquals(List.of("dir/"), rolled.commonPrefixes().stream().map(p -> p.prefix()).toList());
        ListObjectVersionsResponse encoded = s3.listObjectVersions(b -> b.bucket(bucket).encodingType(EncodingType.URL)
                .prefix("a"));
        assertEquals("a b", encoded.versions().get(0).key(), "the SDK decodes the url-encoded key");

        S3Exception noKeyMarker = assertThrows(S3Exception.class, () -> s3.listObjectVersions(b -> b.bucket(bucket)
                .versionIdMarker("null")));
        assertEquals("InvalidArgument", noKeyMarker.awsErrorDetails().errorCode());
    }

    @Test
    void partsOfAVersionThatIsNotCurrentAreServedByNumber() {
        String bucket = versionedBucket("vparts");
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("mp")).uploadId();
        byte[] p1 = seededBytes((int) MIN_PART_SIZE + 3, 41);
        byte[] p2 = seededBytes(77, 42);
        List<CompletedPart> parts = new ArrayList<>();
        int n = 1;
        for (byte[] p : List.of(p1, p2)) {
            int number = n++;
            String etag = s3.uploadPart(b -> b.bucket(bucket).key("mp").uploadId(id).partNumber(number),
                    RequestBody.fromBytes(p)).eTag();
            parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        }
        String old = s3.completeMultipartUpload(b -> b.bucket(bucket).key("mp").uploadId(id)
                .multipartUpload(m -> m.parts(parts))).versionId();
        s3.putObject(b -> b.bucket(bucket).key("mp"), RequestBody.fromString("plain now"));

        var second = s3.getObjectAsBytes(b -> b.bucket(bucket).key("mp").versionId(old).partNumber(2));
        assertArrayEquals(p2, second.asByteArray());
        assertEquals(2, second.response().partsCount());
        assertEquals(old, second.response().versionId());
        HeadObjectResponse first = s3.headObject(b -> b.bucket(bucket).key("mp").versionId(old).partNumber(1));
        assertEquals(p1.length, first.contentLength());
        S3Exception beyond = assertThrows(S3Exception.class, () -> s3.getObject(b -> b.bucket(bucket).key("mp")
                .versionId(old).partNumber(3)));
        assertEquals("InvalidPartNumber", beyond.awsErrorDetails().errorCode());
        assertEquals("plain now", s3.getObjectAsBytes(b -> b.bucket(bucket).key("mp").partNumber(1)).asUtf8String());
    }

    @Test
    void theAclOfAVersionThatIsNotCurrentIsItsOwn() {
        String bucket = versionedBucket("vacl");
        String old = s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("old")).versionId();
        String current = s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("new")).versionId();
        s3.putObjectAcl(b -> b.bucket(bucket).key("k").versionId(old).acl(ObjectCannedACL.PUBLIC_READ));
        assertTrue(publicRead(s3.getObjectAcl(b -> b.bucket(bucket).key("k").versionId(old)).grants()));
        assertFalse(publicRead(s3.getObjectAcl(b -> b.bucket(bucket).key("k")).grants()), "the current keeps its own");
        assertEquals("old", get(bucket, "k", old));
        s3.putObjectAcl(b -> b.bucket(bucket).key("k").acl(ObjectCannedACL.PUBLIC_READ));
        assertEquals(2, s3.listObjectVersions(b -> b.bucket(bucket)).versions().size(), "an ACL makes no version");
        assertEquals(current, s3.headObject(b -> b.bucket(bucket).key("k")).versionId());

        S3Exception missing = assertThrows(S3Exception.class, () -> s3.putObjectAcl(b -> b.bucket(bucket).key("k")
                .versionId("-ENoX3KbVwL2fQ8c").acl(ObjectCannedACL.PRIVATE)));
        assertEquals("NoSuchVersion", missing.awsErrorDetails().errorCode());
        String marker = s3.deleteObject(b -> b.bucket(bucket).key("k")).versionId();
        S3Exception onMarker = assertThrows(S3Exception.class, () -> s3.putObjectAcl(b -> b.bucket(bucket).key("k")
                .versionId(marker).acl(ObjectCannedACL.PRIVATE)));
        assertEquals(405, status(onMarker));
    }

    private static boolean publicRead(List<Grant> grants) {
        return grants.stream().anyMatch(g -> g.grantee().uri() != null && g.grantee().uri().endsWith("/AllUsers")
                && g.permission() == Permission.READ);
    }

    @Test
    void anUnversionedBucketListsEveryObjectAsVersionNull() {
        String bucket = uniqueBucket("vnone");
        s3.createBucket(b -> b.bucket(bucket));
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x"));
        ListObjectVersionsResponse r = s3.listObjectVersions(b -> b.bucket(bucket));
        assertEquals("null", r.versions().get(0).versionId());
        assertTrue(r.versions().get(0).isLatest());
        DeleteObjectResponse d = s3.deleteObject(b -> b.bucket(bucket).key("k"));
        assertNull(d.deleteMarker());
        assertNull(d.versionId());
    }

    @Test
    void aMalformedConfigurationIsRefused() {
        String bucket = uniqueBucket("vbad");
        s3.createBucket(b -> b.bucket(bucket));
        S3Exception e = assertThrows(S3Exception.class, () -> s3.putBucketVersioning(b -> b.bucket(bucket)
                .versioningConfiguration(c -> c.status("Sometimes"))));
        assertEquals("MalformedXML", e.awsErrorDetails().errorCode());
        assertNull(s3.getBucketVersioning(b -> b.bucket(bucket)).status());
    }
}
