package dev.cairn.service.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Signature Version 2 against vectors computed outside Cairn: the string to sign and the
 * Authorization header by botocore's {@code HmacV1Auth} (Date fixed at DATE), presigned URLs by
 * its {@code HmacV1QueryAuth} (Expires fixed at EXPIRES), one request by s3cmd's
 * {@code sign_request_v2}, and the x-amz-date form by hand from S3's description (Python's hmac).
 */
class SigV2VerifierTest {
    private static final String KEY = "AKIDV2EXAMPLE";
    private static final String SECRET = "v2/secret+Key=0123456789abcdefghijklm";
    private static final String DATE = "Mon, 07 Dec 2026 20:00:00 GMT";
    private static final long EXPIRES = 1796677200L;
    private static final Instant NOW = Instant.parse("2026-12-07T20:05:00Z");
    private static final CredentialsProvider CREDENTIALS = CredentialsProvider.of(Map.of(KEY, SECRET));

    private static SigV2Verifier verifier(Instant now) {
        return new SigV2Verifier(CREDENTIALS, Clock.fixed(now, ZoneOffset.UTC), SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
    }

    private static SignedRequest request(String method, String path, String query, String... headerPairs) {
        Map<String, List<String>> headers = new HashMap<>();
        headers.put("host", List.of("127.0.0.1:9000"));
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.computeIfAbsent(headerPairs[i].toLowerCase(), k -> new java.util.ArrayList<>()).add(headerPairs[i + 1]);
        }
        return new SignedRequest(method, path, query, headers);
    }

    private static SignedRequest signed(String method, String path, String query, String authorization,
                                        String... headerPairs) {
        String[] all = new String[headerPairs.length + 4];
        System.arraycopy(headerPairs, 0, all, 0, headerPairs.length);
        all[headerPairs.length] = "Date";
        all[headerPairs.length + 1] = DATE;
        all[headerPairs.length + 2] = "Authorization";
        all[headerPairs.length + 3] = authorization;
        return request(method, path, query, all);
    }

    /** The request verifies; with its signature changed, the mismatch shows the expected string to sign. */
    private static void verifies(SignedRequest request, String bucketInHost, String stringToSign) {
        AuthResult result = verifier(NOW).authenticate(request, bucketInHost);
        assertEquals(KEY, result.accessKey());
        String authorization = request.firstHeader("authorization");
        Map<String, List<String>> tampered = new HashMap<>(request.headers());
        if (authorization != null) {
            tampered.put("authorization", List.of("AWS " + KEY + ":AAAAAAAAAAAAAAAAAAAAAAAAAAA="));
        }
        String query = authorization != null ? request.rawQuery()
                : request.rawQuery().replaceAll("Signature=[^&]*", "Signature=AAAAAAAAAAAAAAAAAAAAAAAAAAA%3D");
        SigV2Mismatch e = assertThrows(SigV2Mismatch.class, () -> verifier(NOW).authenticate(
                new SignedRequest(request.method(), request.rawPath(), query, tampered), bucketInHost));
        assertEquals(stringToSign, e.stringToSign());
        assertEquals(KEY, e.details().get("AWSAccessKeyId"));
        assertEquals(stringToSign, e.details().get("StringToSign"));
    }

    @Test
    void aPlainGetSignsMethodDateAndPath() {
        verifies(signed("GET", "/photos/puppy.jpg", null, "AWS AKIDV2EXAMPLE:n4DfllRq16iqUP10ji0YaLRVZ7w="), null,
                "GET\n\n\n" + DATE + "\n/photos/puppy.jpg");
    }

    @Test
    void contentHeadersAndAmzHeadersAreCanonicalized() {
        verifies(signed("PUT", "/photos/a%20b/c.txt", null, "AWS AKIDV2EXAMPLE:8Eaaa7E7+pjYFvXv3rgCqfe1tbY=",
                        "Content-Type", "text/plain", "Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg==",
                        "x-amz-meta-Author", " Ann ", "x-amz-acl", "public-read"), null,
                "PUT\n1B2M2Y8AsgTpgAmY7PhCfg==\ntext/plain\n" + DATE
                        + "\nx-amz-acl:public-read\nx-amz-meta-author:Ann\n/photos/a%20b/c.txt");
    }

    @Test
    void subResourcesTakePartSortedByName() {
        verifies(signed("PUT", "/photos/big.bin", "partNumber=2&uploadId=abc123",
                "AWS AKIDV2EXAMPLE:pE1gMghCsWzLYYqzLoeKL/VfG/E="), null,
                "PUT\n\n\n" + DATE + "\n/photos/big.bin?partNumber=2&uploadId=abc123");
        verifies(signed("GET", "/photos", "acl", "AWS AKIDV2EXAMPLE:TYIFRzIKrCV3HEPmEodzpGpu8G0="), null,
                "GET\n\n\n" + DATE + "\n/photos/?acl");
        verifies(signed("POST", "/photos", "delete", "AWS AKIDV2EXAMPLE:GMJ0gVAZNpZi24EquNQjhw4J6NI=",
                "Content-MD5", "abc=", "Content-Type", "application/xml"), null,
                "POST\nabc=\napplication/xml\n" + DATE + "\n/photos/?delete");
    }

    @Test
    void otherQueryParametersDoNotTakePart() {
        verifies(signed("GET", "/photos", "list-type=2&prefix=a%2Fb&max-keys=10",
                "AWS AKIDV2EXAMPLE:e50TGQhZwQ5OVggEWhN89P36css="), null, "GET\n\n\n" + DATE + "\n/photos/");
    }

    /** botocore signs a path-style request for a bucket alone as "/bucket/"; the path as sent verifies too. */
    @Test
    void aBucketAloneIsSignedWithOrWithoutItsSlash() {
        assertEquals(KEY, verifier(NOW).authenticate(signed("GET", "/photos", "acl",
                "AWS AKIDV2EXAMPLE:eudt0ZImB6+RLx/2BP4xBtRhFZ0="), null).accessKey());
        assertEquals(KEY, verifier(NOW).authenticate(signed("GET", "/photos", "list-type=2&prefix=a%2Fb&max-keys=10",
                "AWS AKIDV2EXAMPLE:Y2o6G28ei4S8mXod9uUj7w1coFs="), null).accessKey());
    }

    @Test
    void versionIdAndResponseOverridesTakePartDecoded() {
        verifies(signed("GET", "/photos/k", "versionId=v%2B1&response-content-type=text%2Fplain"
                        + "&response-content-disposition=attachment%3B%20filename%3D%22a.txt%22",
                "AWS AKIDV2EXAMPLE:h1TLaKK/fwRFqHLH50jGowXSSi0="), null,
                "GET\n\n\n" + DATE + "\n/photos/k?response-content-disposition=attachment; filename=\"a.txt\""
                        + "&response-content-type=text/plain&versionId=v+1");
    }

    @Test
    void aVirtualHostedRequestSignsItsBucketBeforeThePath() {
        verifies(signed("GET", "/puppy.jpg", null, "AWS AKIDV2EXAMPLE:n4DfllRq16iqUP10ji0YaLRVZ7w="), "photos",
                "GET\n\n\n" + DATE + "\n/photos/puppy.jpg");
        verifies(signed("GET", "/", "uploads", "AWS AKIDV2EXAMPLE:JwuvajLFXP/sFS/c8j3ggs5E6X0="), "photos",
                "GET\n\n\n" + DATE + "\n/photos/?uploads");
    }

    @Test
    void withXAmzDateTheDateLineIsEmpty() {
        SignedRequest r = request("GET", "/photos/puppy.jpg", null, "x-amz-date", DATE,
                "Date", "Tue, 01 Jan 2019 00:00:00 GMT", "Authorization", "AWS AKIDV2EXAMPLE:GD1pbMpITk6nIWgx2XMW06nUzzE=");
        verifies(r, null, "GET\n\n\n\nx-amz-date:" + DATE + "\n/photos/puppy.jpg");
    }

    @Test
    void s3cmdsSubResourceValuesAsSentAreAccepted() {
        SignedRequest r = request("PUT", "/photos/a%20b.txt", "partNumber=1&uploadId=a%2Fb%3D",
                "x-amz-date", "Mon, 07 Dec 2026 20:00:00 +0000", "Content-Type", "text/plain",
                "Authorization", "AWS AKIDV2EXAMPLE:yekwzsFJXdJ1uM5Zj1Dd7imbmTs=");
        assertEquals(KEY, verifier(NOW).authenticate(r, null).accessKey());
    }

    @Test
    void presignedUrlsVerifyUntilTheyExpire() {
        SignedRequest plain = request("GET", "/photos/puppy.jpg",
                "AWSAccessKeyId=AKIDV2EXAMPLE&Signature=Y9vAmnyemKVoNvPyWTaIqxvBghA%3D&Expires=1796677200");
        verifies(plain, null, "GET\n\n\n1796677200\n/photos/puppy.jpg");
        verifies(request("GET", "/photos/k", "response-content-type=text%2Fplain&AWSAccessKeyId=AKIDV2EXAMPLE"
                        + "&Signature=KTvnBKW7Gcawh1lVLlkaD6NsxcQ%3D&Expires=1796677200"), null,
                "GET\n\n\n1796677200\n/photos/k?response-content-type=text/plain");
        assertEquals(KEY, verifier(Instant.ofEpochSecond(EXPIRES)).authenticate(plain, null).accessKey());
        AuthException e = assertThrows(AuthException.class,
                () -> verifier(Instant.ofEpochSecond(EXPIRES + 1)).authenticate(plain, null));
        assertEquals("AccessDenied", e.s3Code());
        assertEquals("Request has expired", e.getMessage());
    }

    @Test
    void aDateFurtherThanFifteenMinutesIsTooSkewed() {
        SignedRequest r = signed("GET", "/photos/puppy.jpg", null, "AWS AKIDV2EXAMPLE:n4DfllRq16iqUP10ji0YaLRVZ7w=");
        assertEquals(KEY, verifier(Instant.parse("2026-12-07T20:15:00Z")).authenticate(r, null).accessKey());
        AuthException e = assertThrows(AuthException.class,
                () -> verifier(Instant.parse("2026-12-07T20:15:01Z")).authenticate(r, null));
        assertEquals("RequestTimeTooSkewed", e.s3Code());
        assertEquals(403, e.httpStatus());
        AuthException none = assertThrows(AuthException.class, () -> verifier(NOW).authenticate(request("GET",
                "/photos/puppy.jpg", null, "Authorization", "AWS AKIDV2EXAMPLE:n4DfllRq16iqUP10ji0YaLRVZ7w="), null));
        assertEquals("AccessDenied", none.s3Code());
    }

    @Test
    void anUnknownKeyIsInvalidAccessKeyId() {
        AuthException e = assertThrows(AuthException.class, () -> verifier(NOW).authenticate(
                signed("GET", "/photos/puppy.jpg", null, "AWS AKIDUNKNOWN:n4DfllRq16iqUP10ji0YaLRVZ7w="), null));
        assertEquals("InvalidAccessKeyId", e.s3Code());
        assertEquals(403, e.httpStatus());
    }

    @Test
    void malformedClaimsAreRefused() {
        assertEquals("InvalidArgument", assertThrows(AuthException.class, () -> verifier(NOW).authenticate(
                signed("GET", "/photos/puppy.jpg", null, "AWS AKIDV2EXAMPLE"), null)).s3Code());
        for (String claim : new String[] {"AWS ", "AWS :c2ln", "AWS AKIDV2EXAMPLE:"}) {
            assertEquals("InvalidArgument", assertThrows(AuthException.class, () -> verifier(NOW).authenticate(
                    signed("GET", "/photos/puppy.jpg", null, claim), null)).s3Code(), claim);
        }
        assertEquals("AccessDenied", assertThrows(AuthException.class, () -> verifier(NOW).authenticate(
                request("GET", "/photos/puppy.jpg", "AWSAccessKeyId=AKIDV2EXAMPLE&Signature=x&Expires=soon"), null))
                .s3Code());
        assertEquals("InvalidArgument", assertThrows(AuthException.class, () -> verifier(NOW).authenticate(
                signed("GET", "/photos/puppy.jpg", "AWSAccessKeyId=AKIDV2EXAMPLE&Signature=x&Expires=1",
                        "AWS AKIDV2EXAMPLE:n4DfllRq16iqUP10ji0YaLRVZ7w="), null)).s3Code());
        AuthException missing = assertThrows(AuthException.class, () -> verifier(NOW).authenticate(
                request("GET", "/photos/puppy.jpg", "AWSAccessKeyId=AKIDV2EXAMPLE&Signature=x"), null));
        assertEquals("AccessDenied", missing.s3Code());
    }

    @Test
    void signedStreamingPayloadsAreVersionFoursAlone() {
        AuthException e = assertThrows(AuthException.class, () -> verifier(NOW).authenticate(
                signed("PUT", "/photos/puppy.jpg", null, "AWS AKIDV2EXAMPLE:n4DfllRq16iqUP10ji0YaLRVZ7w=",
                        "x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"), null));
        assertEquals("InvalidRequest", e.s3Code());
    }

    @Test
    void versionTwoIsRecognizedCheaplyAndApartFromVersionFour() {
        assertTrue(SigV2Verifier.isSignedV2("AWS AKID:sig", null));
        assertTrue(!SigV2Verifier.isSignedV2("AWS4-HMAC-SHA256 Credential=AKID/20261207/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host, Signature=00", "AWSAccessKeyId=x"));
        assertTrue(SigV2Verifier.isSignedV2(null, "AWSAccessKeyId=x&Expires=1&Signature=y"));
        assertTrue(!SigV2Verifier.isSignedV2(null, "X-Amz-Credential=x&AWSAccessKeyId=y"));
        assertTrue(!SigV2Verifier.isSignedV2(null, null));
        assertNull(SigV2Verifier.unsupported().region());
        assertTrue(SigV2Verifier.unsupported().getMessage().contains("Please use AWS4-HMAC-SHA256."));
    }
}
