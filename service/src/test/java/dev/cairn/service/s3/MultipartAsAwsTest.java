package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.service.ServiceTestSupport;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Multipart behaviour clients rely on, as S3 has it: a completion retried after it succeeded
 * succeeds again; of two uploads of one part number, the one that ends last wins; partNumber
 * reads past the parts; UploadPartCopy ranges past the source.
 */
class MultipartAsAwsTest extends ServiceTestSupport {
    private String bucket;
    private PresignedRaw raw;

    @BeforeAll
    void setUp() {
        bucket = uniqueBucket("mpaws");
        s3.createBucket(b -> b.bucket(bucket));
        raw = new PresignedRaw(port, ACCESS_KEY, SECRET_KEY);
    }

    @AfterAll
    void tearDown() {
        raw.close();
    }

    private static String md5(byte[] b) throws Exception {
        return "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(b)) + "\"";
    }

    @Test
    void aCompletionRetriedAfterItSucceededSucceedsAgain() {
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("retried")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket(bucket).key("retried").uploadId(id).partNumber(1),
                RequestBody.fromBytes(seededBytes((int) MIN_PART_SIZE, 1))).eTag();
        String e2 = s3.uploadPart(b -> b.bucket(bucket).key("retried").uploadId(id).partNumber(2),
                RequestBody.fromString("end")).eTag();
        List<CompletedPart> parts = List.of(CompletedPart.builder().partNumber(1).eTag(e1).build(),
                CompletedPart.builder().partNumber(2).eTag(e2).build());
        String first = s3.completeMultipartUpload(b -> b.bucket(bucket).key("retried").uploadId(id)
                .multipartUpload(m -> m.parts(parts))).eTag();
        String again = s3.completeMultipartUpload(b -> b.bucket(bucket).key("retried").uploadId(id)
                .multipartUpload(m -> m.parts(parts))).eTag();
        assertEquals(first, again);

        S3Exception other = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("retried").uploadId(id).multipartUpload(m -> m.parts(parts.get(0)))));
        assertEquals("NoSuchUpload", other.awsErrorDetails().errorCode());
        s3.putObject(b -> b.bucket(bucket).key("retried"), RequestBody.fromString("replaced"));
        S3Exception replaced = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("retried").uploadId(id).multipartUpload(m -> m.parts(parts))));
        assertEquals("NoSuchUpload", replaced.awsErrorDetails().errorCode());
    }

    @Test
    void ofTwoUploadsOfOnePartTheOneThatEndsLastWins() throws Exception {
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("race")).uploadId();
        byte[] slow = seededBytes(200_000, 7);
        byte[] fast = seededBytes(1000, 8);
        String target = raw.uploadPart(bucket, "race", id, 1);
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            OutputStream out = s.getOutputStream();
            out.write(("PUT " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Length: " + slow.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.UTF_8));
            out.write(slow, 0, slow.length / 2);
            out.flush();
            String fastEtag = s3.uploadPart(b -> b.bucket(bucket).key("race").uploadId(id).partNumber(1),
                    RequestBody.fromBytes(fast)).eTag();
            assertEquals(md5(fast), fastEtag);
            assertEquals(fastEtag, s3.listParts(b -> b.bucket(bucket).key("race").uploadId(id)).parts().get(0).eTag());
            out.write(slow, slow.length / 2, slow.length - slow.length / 2);
            out.flush();
            RawS3.Response r = RawS3.read(s.getInputStream());
            assertEquals(200, r.status(), r.body());
            assertEquals(md5(slow), r.headers().get("etag"));
        }
        assertEquals(md5(slow), s3.listParts(b -> b.bucket(bucket).key("race").uploadId(id)).parts().get(0).eTag());
        S3Exception stale = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("race").uploadId(id).multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(md5Unchecked(fast))))));
        assertEquals("InvalidPart", stale.awsErrorDetails().errorCode());
        s3.completeMultipartUpload(b -> b.bucket(bucket).key("race").uploadId(id)
                .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(md5Unchecked(slow)))));
        assertArrayEquals(slow, s3.getObjectAsBytes(b -> b.bucket(bucket).key("race")).asByteArray());
    }

    private static String md5Unchecked(byte[] b) {
        try {
            return md5(b);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void partNumbersPastThePartsGetS3sErrors() {
        s3.putObject(b -> b.bucket(bucket).key("single"), RequestBody.fromString("single"));
        assertEquals("single", s3.getObjectAsBytes(b -> b.bucket(bucket).key("single").partNumber(1)).asUtf8String());
        S3Exception notMultipart = assertThrows(S3Exception.class,
                () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("single").partNumber(2)));
        assertEquals(416, notMultipart.statusCode());
        assertEquals("InvalidPartNumber", notMultipart.awsErrorDetails().errorCode());
        assertEquals(416, assertThrows(S3Exception.class,
                () -> s3.headObject(b -> b.bucket(bucket).key("single").partNumber(2))).statusCode());

        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("two")).uploadId();
        String e1 = s3.uploadPart(b -> b.bucket(bucket).key("two").uploadId(id).partNumber(1),
                RequestBody.fromBytes(seededBytes((int) MIN_PART_SIZE, 3))).eTag();
        String e2 = s3.uploadPart(b -> b.bucket(bucket).key("two").uploadId(id).partNumber(2),
                RequestBody.fromString("last")).eTag();
        s3.completeMultipartUpload(b -> b.bucket(bucket).key("two").uploadId(id).multipartUpload(m -> m.parts(
                CompletedPart.builder().partNumber(1).eTag(e1).build(), CompletedPart.builder().partNumber(2).eTag(e2).build())));
        assertEquals("last", s3.getObjectAsBytes(b -> b.bucket(bucket).key("two").partNumber(2)).asUtf8String());
        S3Exception beyond = assertThrows(S3Exception.class,
                () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("two").partNumber(3)));
        assertEquals(416, beyond.statusCode());
        assertEquals("InvalidPartNumber", beyond.awsErrorDetails().errorCode());
        S3Exception outOfBounds = assertThrows(S3Exception.class,
                () -> s3.getObjectAsBytes(b -> b.bucket(bucket).key("two").partNumber(10_001)));
        assertEquals("InvalidArgument", outOfBounds.awsErrorDetails().errorCode());
    }

    @Test
    void uploadPartCopyPastTheSourceIsInvalidRange() {
        s3.putObject(b -> b.bucket(bucket).key("ten"), RequestBody.fromString("0123456789"));
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("copied")).uploadId();
        S3Exception past = assertThrows(S3Exception.class, () -> s3.uploadPartCopy(b -> b.sourceBucket(bucket)
                .sourceKey("ten").destinationBucket(bucket).destinationKey("copied").uploadId(id).partNumber(1)
                .copySourceRange("bytes=5-10")));
        assertEquals(416, past.statusCode());
        assertEquals("InvalidRange", past.awsErrorDetails().errorCode());
        for (String bad : List.of("bytes=5-2", "bytes=-3", "5-6")) {
            S3Exception malformed = assertThrows(S3Exception.class, () -> s3.uploadPartCopy(b -> b.sourceBucket(bucket)
                    .sourceKey("ten").destinationBucket(bucket).destinationKey("copied").uploadId(id).partNumber(1)
                    .copySourceRange(bad)));
            assertEquals("InvalidArgument", malformed.awsErrorDetails().errorCode(), bad);
        }
        String etag = s3.uploadPartCopy(b -> b.sourceBucket(bucket).sourceKey("ten").destinationBucket(bucket)
                .destinationKey("copied").uploadId(id).partNumber(1).copySourceRange("bytes=5-9")).copyPartResult().eTag();
        assertEquals(md5Unchecked("56789".getBytes(StandardCharsets.UTF_8)), etag);
    }
}
