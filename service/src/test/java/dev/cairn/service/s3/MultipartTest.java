package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.io.ByteArrayOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.ListPartsResponse;
import software.amazon.awssdk.services.s3.model.NoSuchUploadException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** Multipart upload through the AWS SDK: create, parts, copy parts, list, complete, abort, errors. */
class MultipartTest extends ServiceTestSupport {
    private String bucket;

    @BeforeAll
    void createBucket() {
        bucket = uniqueBucket("multipart");
        s3.createBucket(b -> b.bucket(bucket));
    }

    @Test
    void partsAssembleIntoOneObjectWithTheMultipartEtag() throws Exception {
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("mp").contentType("video/mp4")).uploadId();
        byte[] p1 = seededBytes((int) MIN_PART_SIZE, 1);
        byte[] p2 = seededBytes((int) MIN_PART_SIZE + 10, 2);
        byte[] p3 = seededBytes(1000, 3);
        List<CompletedPart> parts = new ArrayList<>();
        ByteArrayOutputStream md5s = new ByteArrayOutputStream();
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        int n = 1;
        for (byte[] p : List.of(p1, p2, p3)) {
            int number = n++;
            String etag = s3.uploadPart(b -> b.bucket(bucket).key("mp").uploadId(id).partNumber(number),
                    RequestBody.fromBytes(p)).eTag();
            parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            md5s.write(MessageDigest.getInstance("MD5").digest(p));
            whole.write(p);
        }
        ListPartsResponse listed = s3.listParts(b -> b.bucket(bucket).key("mp").uploadId(id));
        assertEquals(List.of(1, 2, 3), listed.parts().stream().map(p -> p.partNumber()).toList());
        assertEquals(p2.length, listed.parts().get(1).size());
        ListPartsResponse page = s3.listParts(b -> b.bucket(bucket).key("mp").uploadId(id).maxParts(1).partNumberMarker(1));
        assertEquals(List.of(2), page.parts().stream().map(p -> p.partNumber()).toList());
        assertTrue(page.isTruncated());
        assertTrue(s3.listMultipartUploads(b -> b.bucket(bucket)).uploads().stream().anyMatch(u -> u.uploadId().equals(id)));

        String etag = s3.completeMultipartUpload(b -> b.bucket(bucket).key("mp").uploadId(id)
                .multipartUpload(m -> m.parts(parts))).eTag();
        String expected = "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(md5s.toByteArray())) + "-3\"";
        assertEquals(expected, etag);
        var got = s3.getObjectAsBytes(b -> b.bucket(bucket).key("mp"));
        assertArrayEquals(whole.toByteArray(), got.asByteArray());
        assertEquals("video/mp4", got.response().contentType());
        assertEquals(expected, got.response().eTag());
        assertThrows(NoSuchUploadException.class, () -> s3.listParts(b -> b.bucket(bucket).key("mp").uploadId(id)));
        assertTrue(s3.listMultipartUploads(b -> b.bucket(bucket)).uploads().stream().noneMatch(u -> u.uploadId().equals(id)));
    }

    @Test
    void completionErrorsAreS3s() {
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("bad")).uploadId();
        String small = s3.uploadPart(b -> b.bucket(bucket).key("bad").uploadId(id).partNumber(1),
                RequestBody.fromString("tiny")).eTag();
        String second = s3.uploadPart(b -> b.bucket(bucket).key("bad").uploadId(id).partNumber(2),
                RequestBody.fromString("tiny too")).eTag();
        S3Exception tooSmall = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("bad").uploadId(id).multipartUpload(m -> m.parts(
                        CompletedPart.builder().partNumber(1).eTag(small).build(),
                        CompletedPart.builder().partNumber(2).eTag(second).build()))));
        assertEquals("EntityTooSmall", tooSmall.awsErrorDetails().errorCode());
        S3Exception order = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("bad").uploadId(id).multipartUpload(m -> m.parts(
                        CompletedPart.builder().partNumber(2).eTag(second).build(),
                        CompletedPart.builder().partNumber(1).eTag(small).build()))));
        assertEquals("InvalidPartOrder", order.awsErrorDetails().errorCode());
        S3Exception part = assertThrows(S3Exception.class, () -> s3.completeMultipartUpload(b -> b.bucket(bucket)
                .key("bad").uploadId(id).multipartUpload(m -> m.parts(
                        CompletedPart.builder().partNumber(1).eTag("\"0123\"").build()))));
        assertEquals("InvalidPart", part.awsErrorDetails().errorCode());
        S3Exception number = assertThrows(S3Exception.class, () -> s3.uploadPart(b -> b.bucket(bucket).key("bad")
                .uploadId(id).partNumber(10001), RequestBody.fromString("x")));
        assertEquals("InvalidArgument", number.awsErrorDetails().errorCode());
        s3.abortMultipartUpload(b -> b.bucket(bucket).key("bad").uploadId(id));
        assertThrows(NoSuchUploadException.class, () -> s3.abortMultipartUpload(b -> b.bucket(bucket).key("bad").uploadId(id)));
        assertThrows(NoSuchUploadException.class, () -> s3.uploadPart(b -> b.bucket(bucket).key("bad").uploadId(id)
                .partNumber(1), RequestBody.fromString("x")));
        assertThrows(NoSuchUploadException.class, () -> s3.uploadPart(b -> b.bucket(bucket).key("bad")
                .uploadId("00000000000000000000000000000000").partNumber(1), RequestBody.fromString("x")));
        assertThrows(S3Exception.class, () -> s3.headObject(b -> b.bucket(bucket).key("bad")));
    }

    @Test
    void uploadPartCopyTakesARangeOfAnObject() {
        byte[] src = seededBytes((int) MIN_PART_SIZE * 2, 4);
        s3.putObject(b -> b.bucket(bucket).key("copy-src"), RequestBody.fromBytes(src));
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("copied")).uploadId();
        String e1 = s3.uploadPartCopy(b -> b.sourceBucket(bucket).sourceKey("copy-src").destinationBucket(bucket)
                .destinationKey("copied").uploadId(id).partNumber(1)
                .copySourceRange("bytes=0-" + (MIN_PART_SIZE - 1))).copyPartResult().eTag();
        String e2 = s3.uploadPartCopy(b -> b.sourceBucket(bucket).sourceKey("copy-src").destinationBucket(bucket)
                .destinationKey("copied").uploadId(id).partNumber(2)).copyPartResult().eTag();
        s3.completeMultipartUpload(b -> b.bucket(bucket).key("copied").uploadId(id).multipartUpload(m -> m.parts(
                CompletedPart.builder().partNumber(1).eTag(e1).build(),
                CompletedPart.builder().partNumber(2).eTag(e2).build())));
        byte[] got = s3.getObjectAsBytes(b -> b.bucket(bucket).key("copied")).asByteArray();
        byte[] want = new byte[(int) MIN_PART_SIZE + src.length];
        System.arraycopy(src, 0, want, 0, (int) MIN_PART_SIZE);
        System.arraycopy(src, 0, want, (int) MIN_PART_SIZE, src.length);
        assertArrayEquals(want, got);
    }
    @Test
    void listingUploadsWithADelimiterRollsUpCommonPrefixes() {
        String b = uniqueBucket("mpu-delim");
        s3.createBucket(c -> c.bucket(b));
        for (String key : List.of("a/1", "a/2", "a/b/3", "b/1", "c", "c", "d/x", "e f/y")) {
            s3.createMultipartUpload(c -> c.bucket(b).key(key));
        }
        var all = s3.listMultipartUploads(c -> c.bucket(b).delimiter("/"));
        assertEquals(List.of("a/", "b/", "d/", "e f/"), all.commonPrefixes().stream().map(p -> p.prefix()).toList());
        assertEquals(List.of("c", "c"), all.uploads().stream().map(u -> u.key()).toList());
        assertEquals("/", all.delimiter());
        assertTrue(!all.isTruncated());

        var under = s3.listMultipartUploads(c -> c.bucket(b).prefix("a/").delimiter("/"));
        assertEquals(List.of("a/1", "a/2"), under.uploads().stream().map(u -> u.key()).toList());
        assertEquals(List.of("a/b/"), under.commonPrefixes().stream().map(p -> p.prefix()).toList());

        List<String> seen = new ArrayList<>();
        String keyMarker = null;
        String idMarker = null;
        int pages = 0;
        while (true) {
            String km = keyMarker;
            String im = idMarker;
            var page = s3.listMultipartUploads(c -> c.bucket(b).delimiter("/").maxUploads(2).keyMarker(km)
                    .uploadIdMarker(im).encodingType("url"));
            pages++;
            assertTrue(page.uploads().size() + page.commonPrefixes().size() <= 2);
            page.commonPrefixes().forEach(p -> seen.add(p.prefix()));
            page.uploads().forEach(u -> seen.add(u.key() + "#" + u.uploadId()));
            if (!page.isTruncated()) {
                break;
            }
            keyMarker = page.nextKeyMarker();
            idMarker = page.nextUploadIdMarker();
        }
        assertEquals(3, pages);
        List<String> expected = new ArrayList<>(List.of("a/", "b/"));
        all.uploads().forEach(u -> expected.add(u.key() + "#" + u.uploadId()));
        expected.addAll(List.of("d/", "e f/"));
        assertEquals(expected, seen);
    }

    @Test
    void aCopyOfAMultipartObjectGetsTheMd5OfItsBytes() throws Exception {
        String id = s3.createMultipartUpload(b -> b.bucket(bucket).key("mp-src")).uploadId();
        byte[] p1 = seededBytes((int) MIN_PART_SIZE, 11);
        byte[] p2 = seededBytes(777, 12);
        List<CompletedPart> parts = new ArrayList<>();
        int n = 1;
        for (byte[] p : List.of(p1, p2)) {
            int number = n++;
            String etag = s3.uploadPart(b -> b.bucket(bucket).key("mp-src").uploadId(id).partNumber(number),
                    RequestBody.fromBytes(p)).eTag();
            parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
        }
        String sourceEtag = s3.completeMultipartUpload(b -> b.bucket(bucket).key("mp-src").uploadId(id)
                .multipartUpload(m -> m.parts(parts))).eTag();
        assertTrue(sourceEtag.endsWith("-2\""));

        MessageDigest md5 = MessageDigest.getInstance("MD5");
        md5.update(p1);
        md5.update(p2);
        String expected = "\"" + HexFormat.of().formatHex(md5.digest()) + "\"";
        String copied = s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("mp-src").destinationBucket(bucket)
                .destinationKey("mp-copy")).copyObjectResult().eTag();
        assertEquals(expected, copied);
        assertEquals(expected, s3.headObject(b -> b.bucket(bucket).key("mp-copy")).eTag());
        assertEquals(sourceEtag, s3.headObject(b -> b.bucket(bucket).key("mp-src")).eTag());
    }
}
