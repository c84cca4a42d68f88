package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.async.AsyncRequestBody;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * PutObject and CopyObject with {@code If-Match} (replace only the version named) through the AWS
 * SDK: a compare-and-swap that exactly one of several racing writers wins.
 */
class ConditionalWriteTest extends ServiceTestSupport {
    private String bucket;

    @BeforeAll
    void createBucket() {
        bucket = uniqueBucket("conditional");
        s3.createBucket(b -> b.bucket(bucket));
    }

    @Test
    void ifMatchReplacesOnlyTheVersionNamed() {
        String v1 = s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("one")).eTag();
        String v2 = s3.putObject(b -> b.bucket(bucket).key("k").ifMatch(v1), RequestBody.fromString("two")).eTag();
        assertEquals("two", s3.getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String());

        S3Exception stale = assertThrows(S3Exception.class,
                () -> s3.putObject(b -> b.bucket(bucket).key("k").ifMatch(v1), RequestBody.fromString("three")));
        assertEquals(412, stale.statusCode());
        assertEquals("PreconditionFailed", stale.awsErrorDetails().errorCode());
        assertEquals(v2, s3.headObject(b -> b.bucket(bucket).key("k")).eTag());

        S3Exception absent = assertThrows(S3Exception.class,
                () -> s3.putObject(b -> b.bucket(bucket).key("absent").ifMatch(v1), RequestBody.fromString("x")));
        assertEquals(404, absent.statusCode());
        assertEquals("NoSuchKey", absent.awsErrorDetails().errorCode());
        assertThrows(NoSuchKeyException.class, () -> s3.headObject(b -> b.bucket(bucket).key("absent")));

        s3.putObject(b -> b.bucket(bucket).key("k").ifMatch("*"), RequestBody.fromString("four"));
        assertEquals("four", s3.getObjectAsBytes(b -> b.bucket(bucket).key("k")).asUtf8String());
    }

    @Test
    void ifMatchOnALargeBodyLeavesTheObjectIntactWhenItFails() {
        byte[] big = new byte[3 << 20];
        big[5] = 1;
        String v1 = s3.putObject(b -> b.bucket(bucket).key("big"), RequestBody.fromBytes(big)).eTag();
        big[5] = 2;
        String v2 = s3.putObject(b -> b.bucket(bucket).key("big").ifMatch(v1), RequestBody.fromBytes(big)).eTag();
        big[5] = 3;
        assertEquals(412, assertThrows(S3Exception.class, () -> s3.putObject(b -> b.bucket(bucket).key("big").ifMatch(v1),
                RequestBody.fromBytes(big))).statusCode());
        byte[] got = s3.getObjectAsBytes(b -> b.bucket(bucket).key("big")).asByteArray();
        assertEquals(2, got[5]);
        assertEquals(v2, s3.headObject(b -> b.bucket(bucket).key("big")).eTag());
    }

    @Test
    void copyObjectHonoursIfMatchOnTheDestination() {
        s3.putObject(b -> b.bucket(bucket).key("src"), RequestBody.fromString("source"));
        String dest = s3.putObject(b -> b.bucket(bucket).key("dst"), RequestBody.fromString("dest")).eTag();
        S3Exception stale = assertThrows(S3Exception.class, () -> s3.copyObject(b -> b.sourceBucket(bucket)
                .sourceKey("src").destinationBucket(bucket).destinationKey("dst").ifMatch("\"0123\"")));
        assertEquals(412, stale.statusCode());
        s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("src").destinationBucket(bucket).destinationKey("dst")
                .ifMatch(dest));
        assertEquals("source", s3.getObjectAsBytes(b -> b.bucket(bucket).key("dst")).asUtf8String());
    }

    @Test
    void ofWritersRacingFromOneVersionExactlyOneWins() throws Exception {
        String base = s3.putObject(b -> b.bucket(bucket).key("race"), RequestBody.fromString("base")).eTag();
        race("race", base, null);
    }

    @Test
    void ofWritersRacingToCreateAKeyExactlyOneWins() throws Exception {
        race("created", null, "*");
    }

    /**
     * Writers racing with one condition: exactly one wins, the others answer 412 (or 409
     * ConditionalRequestConflict, as S3 may while another conditional write is in progress), and
     * the winner's body is the object.
     */
    private void race(String key, String ifMatch, String ifNoneMatch) throws Exception {
        int writers = 8;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                int writer = i;
                String body = "writer-" + i;
                Callable<Integer> put = () -> {
                    try {
                        s3Async().putObject(b -> b.bucket(bucket).key(key).ifMatch(ifMatch).ifNoneMatch(ifNoneMatch),
                                AsyncRequestBody.fromString(body)).join();
                        return writer;
                    } catch (java.util.concurrent.CompletionException e) {
                        return -((S3Exception) e.getCause()).statusCode();
                    }
                };
                results.add(pool.submit(put));
            }
            List<Integer> won = new ArrayList<>();
            for (Future<Integer> f : results) {
                int outcome = f.get();
                if (outcome >= 0) {
                    won.add(outcome);
                } else {
                    assertTrue(outcome == -412 || outcome == -409, "status " + -outcome);
                }
            }
            assertEquals(1, won.size(), "winners " + won);
            assertEquals("writer-" + won.get(0), s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void completeMultipartUploadHonoursConditionsAndKeepsTheUploadWhenTheyFail() {
        String existing = s3.putObject(b -> b.bucket(bucket).key("mpu"), RequestBody.fromString("before")).eTag();
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("mpu")).uploadId();
        String part = s3.uploadPart(b -> b.bucket(bucket).key("mpu").uploadId(id).partNumber(1),
                RequestBody.fromString("after")).eTag();
        var parts = software.amazon.awssdk.services.s3.model.CompletedMultipartUpload.builder()
                .parts(p -> p.partNumber(1).eTag(part)).build();

        S3Exception exists = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("mpu").uploadId(id).multipartUpload(parts).ifNoneMatch("*")));
        assertEquals(412, exists.statusCode());
        S3Exception stale = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("mpu").uploadId(id).multipartUpload(parts).ifMatch("\"00000000000000000000000000000000\"")));
        assertEquals(412, stale.statusCode());
        assertEquals("before", s3.getObjectAsBytes(b -> b.bucket(bucket).key("mpu")).asUtf8String());
        assertEquals(1, s3.listParts(b -> b.bucket(bucket).key("mpu").uploadId(id)).parts().size());

        s3.completeMultipartUpload(b -> b.bucket(bucket).key("mpu").uploadId(id).multipartUpload(parts).ifMatch(existing));
        assertEquals("after", s3.getObjectAsBytes(b -> b.bucket(bucket).key("mpu")).asUtf8String());
    }
}
