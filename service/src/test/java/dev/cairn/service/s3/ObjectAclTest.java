package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.GetObjectAclResponse;
import software.amazon.awssdk.services.s3.model.Grant;
import software.amazon.awssdk.services.s3.model.ObjectCannedACL;
import software.amazon.awssdk.services.s3.model.Permission;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.Type;

/**
 * Per-object canned ACLs through the AWS SDK: x-amz-acl on PutObject, CopyObject and
 * CreateMultipartUpload, GetObjectAcl and PutObjectAcl (canned and as an AccessControlPolicy),
 * anonymous reads of a public-read object in a private bucket, grants naming the owner, and
 * x-amz-expected-bucket-owner.
 */
class ObjectAclTest extends ServiceTestSupport {
    private static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
    private final HttpClient http = HttpClient.newHttpClient();
    private String bucket;

    @BeforeAll
    void bucket() {
        bucket = uniqueBucket("acl");
        s3.createBucket(b -> b.bucket(bucket));
    }

    private HttpResponse<String> anonymous(String method, String key) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "/" + key))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static boolean isPublic(GetObjectAclResponse acl) {
        return acl.grants().stream().anyMatch(g -> g.grantee().type() == Type.GROUP
                && ALL_USERS.equals(g.grantee().uri()) && g.permission() == Permission.READ);
    }

    private String ownerId() {
        return s3.getBucketAcl(b -> b.bucket(bucket)).owner().id();
    }

    @Test
    void aPublicReadObjectInAPrivateBucketServesAnonymousReads() throws Exception {
        s3.putObject(b -> b.bucket(bucket).key("open.txt").acl(ObjectCannedACL.PUBLIC_READ), RequestBody.fromString("open"));
        s3.putObject(b -> b.bucket(bucket).key("closed.txt"), RequestBody.fromString("closed"));
        HttpResponse<String> open = anonymous("GET", "open.txt");
        assertEquals(200, open.statusCode());
        assertEquals("open", open.body());
        assertEquals(200, anonymous("HEAD", "open.txt").statusCode());
        HttpResponse<String> closed = anonymous("GET", "closed.txt");
        assertEquals(403, closed.statusCode());
        assertTrue(closed.body().contains("<Code>AccessDenied</Code>"), closed.body());
        assertEquals(403, anonymous("GET", "absent.txt").statusCode(), "no hint of what the bucket holds");
        assertEquals(403, http.send(HttpRequest.newBuilder(URI.create(endpoint() + "/" + bucket + "?list-type=2")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(403, anonymous("GET", "open.txt?acl").statusCode());
        GetObjectAclResponse acl = s3.getObjectAcl(b -> b.bucket(bucket).key("open.txt"));
        assertTrue(isPublic(acl));
        assertEquals(ownerId(), acl.owner().id());
        assertTrue(acl.grants().stream().anyMatch(g -> g.permission() == Permission.FULL_CONTROL
                && ownerId().equals(g.grantee().id())));
        assertTrue(!isPublic(s3.getObjectAcl(b -> b.bucket(bucket).key("closed.txt"))));
        // Overwritten without an ACL: private again, as in S3.
        s3.putObject(b -> b.bucket(bucket).key("open.txt"), RequestBody.fromString("open"));
        assertEquals(403, anonymous("GET", "open.txt").statusCode());
    }

    @Test
    void putObjectAclChangesTheAclAndNothingElse() throws Exception {
        s3.putObject(b -> b.bucket(bucket).key("later.txt").contentType("text/plain").metadata(java.util.Map.of("k", "v")),
                RequestBody.fromString("later"));
        var before = s3.headObject(b -> b.bucket(bucket).key("later.txt"));
        s3.putObjectAcl(b -> b.bucket(bucket).key("later.txt").acl(ObjectCannedACL.PUBLIC_READ));
        assertEquals(200, anonymous("GET", "later.txt").statusCode());
        var after = s3.headObject(b -> b.bucket(bucket).key("later.txt"));
        assertEquals(before.eTag(), after.eTag());
        assertEquals(before.contentType(), after.contentType());
        assertEquals(before.metadata(), after.metadata());
        // Back to private through an AccessControlPolicy body, as the SDK sends it.
        String owner = ownerId();
        s3.putObjectAcl(b -> b.bucket(bucket).key("later.txt").accessControlPolicy(p -> p
                .owner(o -> o.id(owner))
                .grants(Grant.builder().grantee(g -> g.type(Type.CANONICAL_USER).id(owner))
                        .permission(Permission.FULL_CONTROL).build())));
        assertEquals(403, anonymous("GET", "later.txt").statusCode());
        s3.putObjectAcl(b -> b.bucket(bucket).key("later.txt").accessControlPolicy(p -> p
                .owner(o -> o.id(owner))
                .grants(Grant.builder().grantee(g -> g.type(Type.CANONICAL_USER).id(owner))
                                .permission(Permission.FULL_CONTROL).build(),
                        Grant.builder().grantee(g -> g.type(Type.GROUP).uri(ALL_USERS)).permission(Permission.READ).build())));
        assertTrue(isPublic(s3.getObjectAcl(b -> b.bucket(bucket).key("later.txt"))));
        assertEquals("later", anonymous("GET", "later.txt").body());
        S3Exception missing = assertThrows(S3Exception.class,
                () -> s3.putObjectAcl(b -> b.bucket(bucket).key("absent").acl(ObjectCannedACL.PUBLIC_READ)));
        assertEquals(404, missing.statusCode());
    }

    @Test
    void copiesAndMultipartUploadsTakeTheAclTheyName() throws Exception {
        s3.putObject(b -> b.bucket(bucket).key("src.txt").acl(ObjectCannedACL.PUBLIC_READ), RequestBody.fromString("src"));
        s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("src.txt").destinationBucket(bucket).destinationKey("copy-private"));
        assertEquals(403, anonymous("GET", "copy-private").statusCode(), "a copy does not inherit the source's ACL");
        s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("src.txt").destinationBucket(bucket)
                .destinationKey("copy-public").acl(ObjectCannedACL.PUBLIC_READ));
        assertEquals("src", anonymous("GET", "copy-public").body());

        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("mp").acl(ObjectCannedACL.PUBLIC_READ)
                .metadata(java.util.Map.of("m", "1"))).uploadId();
        String etag = s3.uploadPart(b -> b.bucket(bucket).key("mp").uploadId(id).partNumber(1),
                RequestBody.fromString("multipart body")).eTag();
        s3.completeMultipartUpload(b -> b.bucket(bucket).key("mp").uploadId(id)
                .multipartUpload(m -> m.parts(CompletedPart.builder().partNumber(1).eTag(etag).build())));
        assertEquals("multipart body", anonymous("GET", "mp").body());
        assertEquals(java.util.Map.of("m", "1"), s3.headObject(b -> b.bucket(bucket).key("mp")).metadata(),
                "the ACL is not left in the metadata");
        assertTrue(isPublic(s3.getObjectAcl(b -> b.bucket(bucket).key("mp"))));
    }

    @Test
    void grantsNamingTheOwnerAreUnderstoodAndOthersRefused() throws Exception {
        String owner = ownerId();
        s3.putObject(b -> b.bucket(bucket).key("granted").grantFullControl("id=\"" + owner + "\"")
                .grantRead("uri=\"" + ALL_USERS + "\""), RequestBody.fromString("granted"));
        assertEquals("granted", anonymous("GET", "granted").body());
        s3.putObject(b -> b.bucket(bucket).key("owner-only").grantFullControl("id=\"" + owner + "\""),
                RequestBody.fromString("x"));
        assertEquals(403, anonymous("GET", "owner-only").statusCode());
        S3Exception other = assertThrows(S3Exception.class, () -> s3.putObject(b -> b.bucket(bucket).key("other")
                .grantRead("id=\"someone-else\""), RequestBody.fromString("x")));
        assertEquals(501, other.statusCode());
        assertEquals("NotImplemented", other.awsErrorDetails().errorCode());
        S3Exception canned = assertThrows(S3Exception.class, () -> s3.putObject(b -> b.bucket(bucket).key("other")
                .acl(ObjectCannedACL.AUTHENTICATED_READ), RequestBody.fromString("x")));
        assertEquals(501, canned.statusCode());
        assertThrows(software.amazon.awssdk.services.s3.model.NoSuchKeyException.class,
                () -> s3.headObject(b -> b.bucket(bucket).key("other")), "a refused write stores nothing");
        s3.putObject(b -> b.bucket(bucket).key("owned").acl(ObjectCannedACL.BUCKET_OWNER_FULL_CONTROL),
                RequestBody.fromString("x"));
        assertTrue(!isPublic(s3.getObjectAcl(b -> b.bucket(bucket).key("owned"))));
    }

    @Test
    void expectedBucketOwnerIsChecked() {
        String owner = ownerId();
        s3.putObject(b -> b.bucket(bucket).key("mine").expectedBucketOwner(owner), RequestBody.fromString("x"));
        assertEquals("x", s3.getObjectAsBytes(b -> b.bucket(bucket).key("mine").expectedBucketOwner(owner)).asUtf8String());
        S3Exception e = assertThrows(S3Exception.class,
                () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("mine").expectedBucketOwner("111122223333")));
        assertEquals(403, e.statusCode());
        assertEquals(List.of(), List.of());
    }
}
