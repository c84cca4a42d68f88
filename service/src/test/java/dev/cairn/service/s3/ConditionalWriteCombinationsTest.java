package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cairn.service.ServiceTestSupport;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * Every combination of If-Match and If-None-Match on PutObject, CopyObject and
 * CompleteMultipartUpload, against a present and an absent key, through the AWS SDK: the status
 * S3 answers (RFC 9110's order, If-Match first; an absent key under If-Match is NoSuchKey) and
 * whether the object changed.
 */
class ConditionalWriteCombinationsTest extends ServiceTestSupport {
    private static final String OTHER = "\"0123456789abcdef0123456789abcdef\"";
    private String bucket;

    @BeforeAll
    void createBucket() {
        bucket = uniqueBucket("condcombo");
        s3.createBucket(b -> b.bucket(bucket));
        s3.putObject(b -> b.bucket(bucket).key("source"), RequestBody.fromString("copied"));
    }

    /** One case: the headers (null: absent; {@code E}: the current ETag), and the status expected. */
    private record Case(String ifMatch, String ifNoneMatch, boolean present, int status) {
    }

    private static final List<Case> CASES = List.of(
            new Case("E", null, true, 200), new Case(OTHER, null, true, 412), new Case("*", null, true, 200),
            new Case(OTHER + ", E", null, true, 200),
            new Case(null, "*", true, 412), new Case(null, "E", true, 412), new Case(null, OTHER, true, 200),
            new Case(null, OTHER + ", E", true, 412),
            new Case("E", OTHER, true, 200), new Case("E", "E", true, 412), new Case("E", "*", true, 412),
            new Case(OTHER, OTHER, true, 412),
            new Case("\"E\"", null, false, 404), new Case("*", null, false, 404), new Case(null, "*", false, 200),
            new Case(null, OTHER, false, 200), new Case(OTHER, OTHER, false, 404));

    private interface Write {
        void apply(String key, String ifMatch, String ifNoneMatch);
    }

    private void runAll(String operation, Write write, BiFunction<String, Integer, String> expectedBody) {
        int n = 0;
        for (Case c : CASES) {
            String key = operation + "-" + n++;
            String etag = null;
            if (c.present()) {
                etag = s3.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromString("before")).eTag();
            }
            String im = c.ifMatch() == null ? null : c.ifMatch().replace("E", etag == null ? "e" : etag.replace("\"", ""));
            String inm = c.ifNoneMatch() == null ? null : c.ifNoneMatch().replace("E",
                    etag == null ? "e" : etag.replace("\"", ""));
            int status;
            try {
                write.apply(key, im, inm);
                status = 200;
            } catch (S3Exception e) {
                status = e.statusCode();
            }
            String what = operation + " If-Match " + im + " If-None-Match " + inm + (c.present() ? " present" : " absent");
            assertEquals(c.status(), status, what);
            String now = s3.listObjectsV2(b -> b.bucket(bucket).prefix(key)).keyCount() == 0 ? null
                    : s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asUtf8String();
            String expected = status == 200 ? expectedBody.apply(key, status) : c.present() ? "before" : null;
            assertEquals(expected, now, what);
        }
    }

    @Test
    void putObject() {
        runAll("put", (key, im, inm) -> s3.putObject(b -> b.bucket(bucket).key(key).ifMatch(im).ifNoneMatch(inm),
                RequestBody.fromString("after")), (k, s) -> "after");
    }

    @Test
    void copyObject() {
        runAll("copy", (key, im, inm) -> s3.copyObject(b -> b.sourceBucket(bucket).sourceKey("source")
                .destinationBucket(bucket).destinationKey(key).ifMatch(im).ifNoneMatch(inm)), (k, s) -> "copied");
    }

    @Test
    void completeMultipartUpload() {
        runAll("complete", (key, im, inm) -> {
            String id = s3.createMultipartUpload(b -> b.bucket(bucket).key(key)).uploadId();
            String part = s3.uploadPart(b -> b.bucket(bucket).key(key).uploadId(id).partNumber(1),
                    RequestBody.fromString("assembled")).eTag();
            try {
                s3.completeMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id).ifMatch(im).ifNoneMatch(inm)
                        .multipartUpload(m -> m.parts(p -> p.partNumber(1).eTag(part))));
            } catch (S3Exception e) {
                assertEquals(1, s3.listParts(b -> b.bucket(bucket).key(key).uploadId(id)).parts().size(),
                        "the upload stays when its condition fails");
                s3.abortMultipartUpload(b -> b.bucket(bucket).key(key).uploadId(id));
                throw e;
            }
        }, (k, s) -> "assembled");
    }
}
