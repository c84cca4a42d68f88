package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.service.ServiceTestSupport;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.checksums.DefaultChecksumAlgorithm;
import software.amazon.awssdk.checksums.SdkChecksum;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import software.amazon.awssdk.services.s3.model.ChecksumType;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.UploadPartResponse;

/**
 * Checksums of multipart uploads through the AWS SDK, each value checked against the SDK's own
 * computation: COMPOSITE (checksum of the part checksums, then {@code -N}) and FULL_OBJECT (CRC
 * of the whole object), as CompleteMultipartUpload, HeadObject, GetObject and ListParts report
 * them, and the errors S3 gives for mismatches and refused combinations.
 */
class MultipartChecksumTest extends ServiceTestSupport {
    private String bucket;

    @BeforeAll
    void createBucket() {
        bucket = uniqueBucket("mpchecksum");
        s3.createBucket(b -> b.bucket(bucket));
    }

    private static byte[] sdkChecksum(software.amazon.awssdk.checksums.spi.ChecksumAlgorithm a, byte[] data) {
        SdkChecksum c = SdkChecksum.forAlgorithm(a);
        c.update(data, 0, data.length);
        return c.getChecksumBytes();
    }

    private static software.amazon.awssdk.checksums.spi.ChecksumAlgorithm sdk(ChecksumAlgorithm a) {
        return switch (a) {
            case CRC32 -> DefaultChecksumAlgorithm.CRC32;
            case CRC32_C -> DefaultChecksumAlgorithm.CRC32C;
            case SHA1 -> DefaultChecksumAlgorithm.SHA1;
            case SHA256 -> DefaultChecksumAlgorithm.SHA256;
            default -> throw new IllegalArgumentException(a.toString());
        };
    }

    private static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private static String valueOf(ChecksumAlgorithm a, UploadPartResponse r) {
        return switch (a) {
            case CRC32 -> r.checksumCRC32();
            case CRC32_C -> r.checksumCRC32C();
            case SHA1 -> r.checksumSHA1();
            case SHA256 -> r.checksumSHA256();
            default -> throw new IllegalArgumentException(a.toString());
        };
    }

    private static String valueOf(ChecksumAlgorithm a, HeadObjectResponse r) {
        return switch (a) {
            case CRC32 -> r.checksumCRC32();
            case CRC32_C -> r.checksumCRC32C();
            case SHA1 -> r.checksumSHA1();
            case SHA256 -> r.checksumSHA256();
            default -> throw new IllegalArgumentException(a.toString());
        };
    }

    private static String valueOf(ChecksumAlgorithm a, CompleteMultipartUploadResponse r) {
        return switch (a) {
            case CRC32 -> r.checksumCRC32();
            case CRC32_C -> r.checksumCRC32C();
            case SHA1 -> r.checksumSHA1();
            case SHA256 -> r.checksumSHA256();
            default -> throw new IllegalArgumentException(a.toString());
        };
    }

    private static CompletedPart completed(ChecksumAlgorithm a, int number, String etag, String value) {
        CompletedPart.Builder b = CompletedPart.builder().partNumber(number).eTag(etag);
        switch (a) {
            case CRC32 -> b.checksumCRC32(value);
            case CRC32_C -> b.checksumCRC32C(value);
            case SHA1 -> b.checksumSHA1(value);
            case SHA256 -> b.checksumSHA256(value);
            default -> throw new IllegalArgumentException(a.toString());
        }
        return b.build();
    }

    /** Uploads two parts with the SDK computing their checksums; returns them completed with checksums. */
    private List<CompletedPart> uploadTwoParts(String key, String id, ChecksumAlgorithm a, byte[] p1, byte[] p2) {
        List<CompletedPart> parts = new ArrayList<>();
        int n = 1;
        for (byte[] p : List.of(p1, p2)) {
            int number = n++;
            UploadPartResponse up = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(id).partNumber(number)
                    .checksumAlgorithm(a), RequestBody.fromBytes(p));
            assertEquals(b64(sdkChecksum(sdk(a), p)), valueOf(a, up));
            parts.add(completed(a, number, up.eTag(), valueOf(a, up)));
        }
        return parts;
    }

    @Test
    void compositeChecksumsAreTheChecksumOfThePartChecksums() {
        for (ChecksumAlgorithm a : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32_C, ChecksumAlgorithm.SHA1,
                ChecksumAlgorithm.SHA256)) {
            String key = "composite-" + a;
            byte[] p1 = seededBytes((int) MIN_PART_SIZE + 3, 11);
            byte[] p2 = seededBytes(777, 12);
            var created = s3.createMultipartUpload(b -> b.bucket(bucket).key(key).checksumAlgorithm(a));
            assertEquals(a, created.checksumAlgorithm());
            assertEquals(ChecksumType.COMPOSITE, created.checksumType());
            String id = created.uploadId();
            List<CompletedPart> parts = uploadTwoParts(key, id, a, p1, p2);

            var listed = s3.listParts(b -> b.bucket(bucket).key(key).uploadId(id));
            assertEquals(a, listed.checksumAlgorithm());
            assertEquals(ChecksumType.COMPOSITE, listed.checksumType());
            assertEquals(b64(sdkChecksum(sdk(a), p2)), switch (a) {
                case CRC32 -> listed.parts().get(1).checksumCRC32();
                case CRC32_C -> listed.parts().get(1).checksumCRC32C();
                case SHA1 -> listed.parts().get(1).checksumSHA1();
                default -> listed.parts().get(1).checksumSHA256();
            });
            assertEquals(a, s3.listMultipartUploads(b -> b.bucket(bucket).prefix(key)).uploads().get(0).checksumAlgorithm());

            ByteArrayOutputStream raw = new ByteArrayOutputStream();
            raw.writeBytes(sdkChecksum(sdk(a), p1));
            raw.writeBytes(sdkChecksum(sdk(a), p2));
            String expected = b64(sdkChecksum(sdk(a), raw.toByteArray())) + "-2";

            var done = s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id)
                    .multipartUpload(m -> m.parts(parts)));
            assertEquals(expected, valueOf(a, done), a.toString());
            assertEquals(ChecksumType.COMPOSITE, done.checksumType());
            HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED));
            assertEquals(expected, valueOf(a, head));
            assertEquals(ChecksumType.COMPOSITE, head.checksumType());
            assertEquals(0, head.metadata().size(), "the upload's bookkeeping is not the object's metadata");
            var got = s3.getObjectAsBytes(b -> b.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED));
            assertEquals(p1.length + p2.length, got.asByteArray().length);
        }
    }

    @Test
    void fullObjectChecksumsAreTheCrcOfTheWholeObject() {
        for (ChecksumAlgorithm a : List.of(ChecksumAlgorithm.CRC32, ChecksumAlgorithm.CRC32_C)) {
            String key = "full-" + a;
            byte[] p1 = seededBytes((int) MIN_PART_SIZE, 21);
            byte[] p2 = seededBytes(4321, 22);
            String id = s3.createMultipartUpload(b -> b.bucket(bucket).key(key).checksumAlgorithm(a)
                    .checksumType(ChecksumType.FULL_OBJECT)).uploadId();
            List<CompletedPart> parts = uploadTwoParts(key, id, a, p1, p2);
            ByteArrayOutputStream whole = new ByteArrayOutputStream();
            whole.writeBytes(p1);
            whole.writeBytes(p2);
            String expected = b64(sdkChecksum(sdk(a), whole.toByteArray()));

            S3Exception wrong = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                    .key(key).uploadId(id).checksumType(ChecksumType.FULL_OBJECT)
                    .checksumCRC32(a == ChecksumAlgorithm.CRC32 ? "AAAAAA==" : null)
                    .checksumCRC32C(a == ChecksumAlgorithm.CRC32_C ? "AAAAAA==" : null)
                    .multipartUpload(m -> m.parts(parts))));
            assertEquals("BadDigest", wrong.awsErrorDetails().errorCode());

            var done = s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id)
                    .checksumType(ChecksumType.FULL_OBJECT)
                    .checksumCRC32(a == ChecksumAlgorithm.CRC32 ? expected : null)
                    .checksumCRC32C(a == ChecksumAlgorithm.CRC32_C ? expected : null)
                    .multipartUpload(m -> m.parts(parts)));
            assertEquals(expected, valueOf(a, done));
            assertEquals(ChecksumType.FULL_OBJECT, done.checksumType());
            HeadObjectResponse head = s3.headObject(b -> b.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED));
            assertEquals(expected, valueOf(a, head));
            assertEquals(ChecksumType.FULL_OBJECT, head.checksumType());
            // The SDK checks a whole-object checksum against the body it receives.
            s3.getObjectAsBytes(b -> b.bucket(bucket).key(key).checksumMode(ChecksumMode.ENABLED));
        }
    }

    @Test
    void mismatchesAndRefusedCombinationsGetS3sErrors() {
        ChecksumAlgorithm a = ChecksumAlgorithm.CRC32;
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("bad").checksumAlgorithm(a)).uploadId();
        List<CompletedPart> parts = uploadTwoParts("bad", id, a, seededBytes((int) MIN_PART_SIZE, 31), seededBytes(9, 32));

        List<CompletedPart> wrongPart = List.of(parts.get(0), parts.get(1).toBuilder().checksumCRC32("AAAAAA==").build());
        S3Exception badPart = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("bad").uploadId(id).multipartUpload(m -> m.parts(wrongPart))));
        assertEquals("BadDigest", badPart.awsErrorDetails().errorCode());

        List<CompletedPart> missing = List.of(parts.get(0), parts.get(1).toBuilder().checksumCRC32(null).build());
        S3Exception absent = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("bad").uploadId(id).multipartUpload(m -> m.parts(missing))));
        assertEquals("InvalidRequest", absent.awsErrorDetails().errorCode());

        S3Exception mode = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("bad").uploadId(id).checksumType(ChecksumType.FULL_OBJECT).multipartUpload(m -> m.parts(parts))));
        assertEquals("InvalidRequest", mode.awsErrorDetails().errorCode());

        S3Exception otherAlgorithm = assertThrows(S3Exception.class, () -> s3.uploadPart(b -> b.bucket(bucket)
                .key("bad").uploadId(id).partNumber(3).checksumAlgorithm(ChecksumAlgorithm.SHA256),
                RequestBody.fromString("x")));
        assertEquals("InvalidRequest", otherAlgorithm.awsErrorDetails().errorCode());

        S3Exception badPut = assertThrows(S3Exception.class, () -> s3.putObject(b -> b.bucket(bucket).key("p")
                .checksumCRC32C("AAAAAA=="), RequestBody.fromString("data")));
        assertEquals("BadDigest", badPut.awsErrorDetails().errorCode());

        for (var combination : List.of(List.of(ChecksumAlgorithm.SHA256, ChecksumType.FULL_OBJECT),
                List.of(ChecksumAlgorithm.SHA1, ChecksumType.FULL_OBJECT))) {
            S3Exception refused = assertThrows(S3Exception.class, () -> s3.createMultipartUpload(b -> b.bucket(bucket)
                    .key("c").checksumAlgorithm((ChecksumAlgorithm) combination.get(0))
                    .checksumType((ChecksumType) combination.get(1))));
            assertEquals("InvalidRequest", refused.awsErrorDetails().errorCode());
        }
        // Still completes with the right checksums after every refusal.
        String etag = s3.completeMultipartUpload(b -> b.bucket(bucket).key("bad").uploadId(id)
                .multipartUpload(m -> m.parts(parts))).checksumCRC32();
        assertEquals(true, etag.endsWith("-2"));
    }
}
