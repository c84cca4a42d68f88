package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * GetObject and HeadObject by part number, as the SDK's multipart downloads ask, on the embedded
 * store ({@link PartNumberReadOnCassandraTest}: on the Cassandra store).
 */
class PartNumberReadTest extends ServiceTestSupport {
    private String bucket;

    @BeforeAll
    void createBucket() {
        bucket = uniqueBucket("by-part");
        s3.createBucket(b -> b.bucket(bucket));
    }

    @Test
    void theAsyncMultipartClientsUploadAndDownloadRoundTrip() throws Exception {
        byte[] data = seededBytes(5 << 20, 21);
        try (var client = software.amazon.awssdk.services.s3.S3AsyncClient.builder()
                .endpointOverride(endpoint())
                .region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .forcePathStyle(true)
                .multipartEnabled(true)
                .multipartConfiguration(m -> m.thresholdInBytes(1L << 20).minimumPartSizeInBytes(1L << 20))
                .build()) {
            client.putObject(b -> b.bucket(bucket).key("async-mp"),
                    software.amazon.awssdk.core.async.AsyncRequestBody.fromBytes(data)).join();
            var head = s3.headObject(b -> b.bucket(bucket).key("async-mp"));
            assertEquals(data.length, head.contentLength());
            assertTrue(head.eTag().endsWith("-5\""), head.eTag());
            // The multipart client downloads by part number (GetObject partNumber).
            var got = client.getObject(b -> b.bucket(bucket).key("async-mp"),
                    software.amazon.awssdk.core.async.AsyncResponseTransformer.toBytes()).join();
            assertArrayEquals(data, got.asByteArray());
        }
    }

    @Test
    void getObjectServesOnePartByNumber() throws Exception {
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("by-part")).uploadId();
        byte[] p1 = seededBytes((int) MIN_PART_SIZE + 5, 31);
        byte[] p2 = seededBytes((int) MIN_PART_SIZE, 32);
        byte[] p3 = seededBytes(99, 33);
        List<CompletedPart> parts = new ArrayList<>();
        int n = 1;
        for (byte[] p : List.of(p1, p2, p3)) {
            int number = n++;
            String etag = s3.uploadPart(b -> b.bucket(bucket).key("by-part").uploadId(id).partNumber(number),
                    RequestBody.fromBytes(p)).eTag();
            parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        }
        s3.completeMultipartUpload(b -> b.bucket(bucket).key("by-part").uploadId(id).multipartUpload(m -> m.parts(parts)));
        long total = p1.length + p2.length + p3.length;

        var second = s3.getObjectAsBytes(b -> b.bucket(bucket).key("by-part").partNumber(2));
        assertArrayEquals(p2, second.asByteArray());
        assertEquals(3, second.response().partsCount());
        assertEquals("bytes " + p1.length + "-" + (p1.length + p2.length - 1) + "/" + total, second.response().contentRange());
        var head = s3.headObject(b -> b.bucket(bucket).key("by-part").partNumber(3));
        assertEquals(p3.length, head.contentLength());
        S3Exception beyond = assertThrows(S3Exception.class, () -> s3.getObject(b -> b.bucket(bucket).key("by-part").partNumber(4)));
        assertEquals(416, beyond.statusCode());
        assertEquals("InvalidPartNumber", beyond.awsErrorDetails().errorCode());
        assertEquals(400, assertThrows(S3Exception.class, () -> s3.getObject(b -> b.bucket(bucket).key("by-part")
                .partNumber(1).range("bytes=0-1"))).statusCode());

        s3.putObject(b -> b.bucket(bucket).key("by-part"), RequestBody.fromBytes(p3));
        assertArrayEquals(p3, s3.getObjectAsBytes(b -> b.bucket(bucket).key("by-part").partNumber(1)).asByteArray());
        assertEquals(416, assertThrows(S3Exception.class, () -> s3.getObject(b -> b.bucket(bucket).key("by-part")
                .partNumber(2))).statusCode());
    }
}
