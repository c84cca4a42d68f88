package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.GetObjectAttributesResponse;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectAttributes;
import software.amazon.awssdk.services.s3.model.Payer;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * What clients read and Cairn never holds (bucket policy, CORS, lifecycle, …, object tags),
 * answered as S3 answers for a bucket or object without it; deleting it answers 204, as S3 does when
 * there is nothing to delete; writing it stays NotImplemented. And
 * GetObjectAttributes. Through the AWS SDK.
 */
class UnsetConfigurationTest extends ServiceTestSupport {
    private String bucket;

    @BeforeAll
    void createBucket() {
        bucket = uniqueBucket("unset");
        s3.createBucket(b -> b.bucket(bucket));
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("value"));
    }

    private static void assertError(int status, String code, Executable call) {
        S3Exception e = assertThrows(S3Exception.class, call);
        assertEquals(status, e.statusCode(), code);
        assertEquals(code, e.awsErrorDetails().errorCode());
    }

    @Test
    void bucketConfigurationReadsAnswerNone() {
        Map<String, Executable> absent = new LinkedHashMap<>();
        absent.put("NoSuchBucketPolicy", () -> s3.getBucketPolicy(b -> b.bucket(bucket)));
        absent.put("NoSuchCORSConfiguration", () -> s3.getBucketCors(b -> b.bucket(bucket)));
        absent.put("NoSuchLifecycleConfiguration", () -> s3.getBucketLifecycleConfiguration(b -> b.bucket(bucket)));
        absent.put("ServerSideEncryptionConfigurationNotFoundError", () -> s3.getBucketEncryption(b -> b.bucket(bucket)));
        absent.put("NoSuchTagSet", () -> s3.getBucketTagging(b -> b.bucket(bucket)));
        absent.put("NoSuchWebsiteConfiguration", () -> s3.getBucketWebsite(b -> b.bucket(bucket)));
        absent.put("ReplicationConfigurationNotFoundError", () -> s3.getBucketReplication(b -> b.bucket(bucket)));
        absent.put("NoSuchPublicAccessBlockConfiguration", () -> s3.getPublicAccessBlock(b -> b.bucket(bucket)));
        absent.put("OwnershipControlsNotFoundError", () -> s3.getBucketOwnershipControls(b -> b.bucket(bucket)));
        absent.put("ObjectLockConfigurationNotFoundError", () -> s3.getObjectLockConfiguration(b -> b.bucket(bucket)));
        absent.forEach((code, call) -> assertError(404, code, call));
        assertError(404, "NoSuchBucketPolicy", () -> s3.getBucketPolicyStatus(b -> b.bucket(bucket)));

        assertNull(s3.getBucketLogging(b -> b.bucket(bucket)).loggingEnabled());
        var notifications = s3.getBucketNotificationConfiguration(b -> b.bucket(bucket));
        assertTrue(notifications.topicConfigurations().isEmpty() && notifications.queueConfigurations().isEmpty()
                && notifications.lambdaFunctionConfigurations().isEmpty());
        assertNull(s3.getBucketAccelerateConfiguration(b -> b.bucket(bucket)).status());
        assertEquals(Payer.BUCKET_OWNER, s3.getBucketRequestPayment(b -> b.bucket(bucket)).payer());

        assertThrows(NoSuchBucketException.class, () -> s3.getBucketPolicy(b -> b.bucket("no-" + bucket)));
        assertError(501, "NotImplemented", () -> s3.putBucketPolicy(b -> b.bucket(bucket).policy("{}")));
        assertError(501, "NotImplemented", () -> s3.putBucketTagging(b -> b.bucket(bucket)
                .tagging(t -> t.tagSet(s -> s.key("a").value("b")))));
    }

    @Test
    void bucketConfigurationDeletesAnswerNoContent() {
        List<Executable> deletes = List.of(
                () -> s3.deleteBucketPolicy(b -> b.bucket(bucket)),
                () -> s3.deleteBucketCors(b -> b.bucket(bucket)),
                () -> s3.deleteBucketLifecycle(b -> b.bucket(bucket)),
                () -> s3.deleteBucketEncryption(b -> b.bucket(bucket)),
                () -> s3.deleteBucketTagging(b -> b.bucket(bucket)),
                () -> s3.deleteBucketWebsite(b -> b.bucket(bucket)),
                () -> s3.deleteBucketReplication(b -> b.bucket(bucket)),
                () -> s3.deletePublicAccessBlock(b -> b.bucket(bucket)),
                () -> s3.deleteBucketOwnershipControls(b -> b.bucket(bucket)));
        for (Executable delete : deletes) {
            assertDoesNotThrow(delete);
        }
        assertEquals(204, s3.deleteBucketCors(b -> b.bucket(bucket)).sdkHttpResponse().statusCode());
        assertEquals(204, s3.deleteBucketPolicy(b -> b.bucket(bucket)).sdkHttpResponse().statusCode());
        assertError(404, "NoSuchCORSConfiguration", () -> s3.getBucketCors(b -> b.bucket(bucket)));
        assertThrows(NoSuchBucketException.class, () -> s3.deleteBucketCors(b -> b.bucket("no-" + bucket)));
        assertError(501, "NotImplemented", () -> s3.deleteBucketAnalyticsConfiguration(b -> b.bucket(bucket).id("a")));
    }

    @Test
    void objectsHaveNoTags() {
        assertTrue(s3.getObjectTagging(b -> b.bucket(bucket).key("k")).tagSet().isEmpty());
        s3.deleteObjectTagging(b -> b.bucket(bucket).key("k"));
        assertThrows(NoSuchKeyException.class, () -> s3.getObjectTagging(b -> b.bucket(bucket).key("absent")));
        assertError(501, "NotImplemented", () -> s3.putObjectTagging(b -> b.bucket(bucket).key("k")
                .tagging(t -> t.tagSet(s -> s.key("a").value("b")))));
        assertEquals("value", s3.getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String());
    }

    @Test
    void getObjectAttributesOfAPlainAndAMultipartObject() {
        String etag = s3.putObject(b -> b.bucket(bucket).key("plain").checksumAlgorithm(ChecksumAlgorithm.CRC32),
                RequestBody.fromString("plain value")).eTag();
        GetObjectAttributesResponse plain = s3.getObjectAttributes(b -> b.bucket(bucket).key("plain")
                .objectAttributes(ObjectAttributes.E_TAG, ObjectAttributes.CHECKSUM, ObjectAttributes.OBJECT_SIZE,
                        ObjectAttributes.STORAGE_CLASS, ObjectAttributes.OBJECT_PARTS));
        assertEquals(etag.replace("\"", ""), plain.eTag());
        assertEquals(11L, plain.objectSize());
        assertEquals("STANDARD", plain.storageClassAsString());
        assertTrue(plain.checksum().checksumCRC32() != null, "the CRC32 the SDK sent");
        assertNull(plain.objectParts());
        assertTrue(plain.lastModified() != null);

        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("parts")).uploadId();
        List<byte[]> bodies = List.of(seededBytes(5 << 20, 1), seededBytes(5 << 20, 2), seededBytes(1234, 3));
        var completed = new java.util.ArrayList<software.amazon.awssdk.services.s3.model.CompletedPart>();
        for (int n = 1; n <= bodies.size(); n++) {
            int part = n;
            String e = s3.uploadPart(b -> b.bucket(bucket).key("parts").uploadId(id).partNumber(part),
                    RequestBody.fromBytes(bodies.get(part - 1))).eTag();
            completed.add(software.amazon.awssdk.services.s3.model.CompletedPart.builder().partNumber(n).eTag(e).build());
        }
        s3.completeMultipartUpload(b -> b.bucket(bucket).key("parts").uploadId(id).multipartUpload(m -> m.parts(completed)));
        GetObjectAttributesResponse page = s3.getObjectAttributes(b -> b.bucket(bucket).key("parts")
                .objectAttributes(ObjectAttributes.OBJECT_PARTS, ObjectAttributes.OBJECT_SIZE).maxParts(2));
        assertEquals((10L << 20) + 1234, page.objectSize());
        assertEquals(3, page.objectParts().totalPartsCount());
        assertTrue(page.objectParts().isTruncated());
        assertEquals(2, page.objectParts().parts().size());
        assertEquals(5L << 20, page.objectParts().parts().get(1).size());
        GetObjectAttributesResponse rest = s3.getObjectAttributes(b -> b.bucket(bucket).key("parts")
                .objectAttributes(ObjectAttributes.OBJECT_PARTS).partNumberMarker(page.objectParts().nextPartNumberMarker()));
        assertEquals(3, rest.objectParts().parts().get(0).partNumber());
        assertEquals(1234L, rest.objectParts().parts().get(0).size());
        assertTrue(!rest.objectParts().isTruncated());

        assertThrows(NoSuchKeyException.class, () -> s3.getObjectAttributes(b -> b.bucket(bucket).key("absent")
                .objectAttributes(ObjectAttributes.E_TAG)));
    }
}
