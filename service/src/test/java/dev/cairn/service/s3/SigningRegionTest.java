package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.ServiceTestSupport;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3Configuration;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.presigner.S3Presigner;

/**
 * Requests signed for a region other than {@code cairn.region} (us-east-1 here) are refused as S3
 * refuses them, naming the region to sign for, before anything is read or written: 400
 * AuthorizationHeaderMalformed for a signed header, AuthorizationQueryParametersError for a
 * presigned URL, each with {@code <Region>}.
 */
class SigningRegionTest extends ServiceTestSupport {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aClientOfAnotherRegionIsToldTheRegion() {
        String bucket = uniqueBucket("region");
        s3.createBucket(b -> b.bucket(bucket));
        try (S3Client oregon = S3Client.builder().endpointOverride(endpoint()).region(Region.US_WEST_2)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .forcePathStyle(true).build()) {
            S3Exception e = assertThrows(S3Exception.class,
                    () -> oregon.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x")));
            assertEquals(400, e.statusCode());
            assertEquals("AuthorizationHeaderMalformed", e.awsErrorDetails().errorCode());
            assertEquals("The authorization header is malformed; the region 'us-west-2' is wrong; expecting 'us-east-1'",
                    e.awsErrorDetails().errorMessage());
        }
        assertTrue(s3.listObjectsV2(b -> b.bucket(bucket)).contents().isEmpty(), "nothing was written");
    }

    @Test
    void aUrlPresignedForAnotherRegionIsToldTheRegion() throws Exception {
        String bucket = uniqueBucket("region");
        s3.createBucket(b -> b.bucket(bucket));
        s3.putObject(b -> b.bucket(bucket).key("k"), RequestBody.fromString("x"));
        try (S3Presigner frankfurt = S3Presigner.builder().endpointOverride(endpoint()).region(Region.EU_CENTRAL_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .serviceConfiguration(S3Configuration.builder().pathStyleAccessEnabled(true).build()).build()) {
            var url = frankfurt.presignGetObject(p -> p.signatureDuration(Duration.ofMinutes(5))
                    .getObjectRequest(g -> g.bucket(bucket).key("k"))).url().toURI();
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(url).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(400, r.statusCode());
            assertTrue(r.body().contains("<Code>AuthorizationQueryParametersError</Code>"), r.body());
            String body = r.body().replace("&apos;", "'");
            assertTrue(body.contains("<Message>Error parsing the X-Amz-Credential parameter; the region "
                    + "'eu-central-1' is wrong; expecting 'us-east-1'</Message>"), body);
            assertTrue(r.body().contains("<Region>us-east-1</Region>"), r.body());
        }
    }
}
