package dev.cairn.service.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class S3ArchiveClientTest {
    private static final S3ArchiveClient.Credentials EXAMPLE = new S3ArchiveClient.Credentials(
            "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", null);

    @Test
    void signsTheSignatureV4DocumentationsListObjectsExample() {
        // AWS's "Signature Calculations for the Authorization Header", example "GET Bucket (List Objects)".
        S3ArchiveClient s3 = new S3ArchiveClient(null, "examplebucket", "us-east-1", () -> EXAMPLE, Duration.ofSeconds(1),
                Clock.systemUTC());
        String auth = s3.authorization("GET", "examplebucket.s3.amazonaws.com", "/", "max-keys=2&prefix=J",
                "20130524T000000Z", EXAMPLE);
        assertEquals("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + "SignedHeaders=host;x-amz-content-sha256;x-amz-date,"
                + "Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7", auth);
    }

    @Test
    void aSessionTokenIsSigned() {
        S3ArchiveClient s3 = new S3ArchiveClient(null, "examplebucket", "us-east-1", () -> EXAMPLE, Duration.ofSeconds(1),
                Clock.systemUTC());
        S3ArchiveClient.Credentials temporary = new S3ArchiveClient.Credentials(EXAMPLE.accessKey(), EXAMPLE.secretKey(), "token");
        String auth = s3.authorization("GET", "examplebucket.s3.amazonaws.com", "/", "max-keys=2&prefix=J",
                "20130524T000000Z", temporary);
        assertTrue(auth.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"), auth);
    }

    @Test
    void addressesPathStyleOnAnEndpointElseVirtualHostedOnAws() {
        S3ArchiveClient onEndpoint = new S3ArchiveClient(URI.create("http://127.0.0.1:9000"), "archive", "us-east-1",
                () -> EXAMPLE, Duration.ofSeconds(1), Clock.systemUTC());
        assertEquals("http://127.0.0.1:9000/archive", onEndpoint.describe());
        S3ArchiveClient onAws = new S3ArchiveClient(null, "archive", "eu-west-1", () -> EXAMPLE, Duration.ofSeconds(1),
                Clock.systemUTC());
        assertEquals("https://archive.s3.eu-west-1.amazonaws.com", onAws.describe());
        assertEquals("example.net", S3ArchiveClient.hostHeader(URI.create("https://example.net:443/")));
        assertEquals("example.net:8443", S3ArchiveClient.hostHeader(URI.create("https://example.net:8443")));
        assertEquals("example.net", S3ArchiveClient.hostHeader(URI.create("http://example.net")));
    }
}
