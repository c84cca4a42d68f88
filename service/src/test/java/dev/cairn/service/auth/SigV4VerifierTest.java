package dev.cairn.service.auth;

import static dev.cairn.service.auth.SdkSigning.ACCESS_KEY;
import static dev.cairn.service.auth.SdkSigning.NOW;
import static dev.cairn.service.auth.SdkSigning.SECRET_KEY;
import static dev.cairn.service.auth.SdkSigning.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.auth.SdkSigning.Wire;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.http.SdkHttpMethod;

class SigV4VerifierTest {
    private static final CredentialsProvider CREDENTIALS = CredentialsProvider.of(Map.of(
            ACCESS_KEY, SECRET_KEY,
            "AKIAOTHERUSER0000002", "anotherSecret"));

    private static SigV4Verifier verifierAt(Instant now) {
        return new SigV4Verifier(CREDENTIALS, "us-east-1", Clock.fixed(now, ZoneOffset.UTC), SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
    }

    private static AuthResult authenticate(Wire wire) {
        return verifierAt(NOW).authenticate(wire.request());
    }

    private static AuthException rejected(Wire wire, String code) {
        return rejected(verifierAt(NOW), wire, code);
    }

    private static AuthException rejected(SigV4Verifier verifier, Wire wire, String code) {
        AuthException e = assertThrows(AuthException.class, () -> verifier.authenticate(wire.request()));
        assertEquals(code, e.s3Code(), e.getMessage());
        assertFalse(e.getMessage().contains(SECRET_KEY), "a secret in a message");
        return e;
    }

    private static byte[] readBody(AuthResult result, byte[] body) throws IOException {
        try (InputStream in = result.wrapBody(new ByteArrayInputStream(body))) {
            return in.readAllBytes();
        }
    }

    @Test
    void getWithQueryParametersIsAuthenticated() {
        Wire wire = spec().encodedPath("/bucket")
                .query("list-type", "2")
                .query("prefix", "photos/a b+c/ü~x*")
                .query("delimiter", "/")
                .query("max-keys", "10")
                .query("encoding-type", "url")
                .query("versions", "")
                .sign();
        AuthResult result = authenticate(wire);
        assertEquals(ACCESS_KEY, result.accessKey());
        assertFalse(result.isAnonymous());
        assertEquals(PayloadMode.UNSIGNED, result.payloadMode());
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b.txt", "ünïcödé/文件.png", "100%.txt", "a+b=c&d", "dir//x", "../../etc/passwd",
        "./x/..", "~tilde", "!$&'()*,;=:@", "?#[]", "emoji-\uD83D\uDE00", "trailing/", " lead and trail "})
    void putWithSignedPayloadAndUnusualKey(String key) throws IOException {
        byte[] body = ("content of " + key).getBytes(StandardCharsets.UTF_8);
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", key).body(body).signedPayload()
                .header("Content-Type", "image/png").header("x-amz-meta-name", "value  with   spaces ")
                .sign();
        AuthResult result = authenticate(wire);
        assertEquals(PayloadMode.SIGNED, result.payloadMode());
        assertEquals(body.length, result.decodedContentLength());
        assertArrayEquals(body, readBody(result, wire.body()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a b.txt", "ünï/文件.png", "100%.txt", "a+b", "dir//x", "../up", "!'()*"})
    void getWithUnusualKeyIsAuthenticated(String key) {
        Wire wire = spec().key("bucket", key).query("response-content-type", "text/plain; charset=utf-8").sign();
        assertEquals(ACCESS_KEY, authenticate(wire).accessKey());
    }

    @Test
    void putWithUnsignedPayloadPassesTheBodyThrough() throws IOException {
        byte[] body = new byte[20 * 1024];
        new java.util.Random(7).nextBytes(body);
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(body).sign();
        assertEquals("UNSIGNED-PAYLOAD", wire.header("x-amz-content-sha256"));
        AuthResult result = authenticate(wire);
        assertEquals(PayloadMode.UNSIGNED, result.payloadMode());
        assertArrayEquals(body, readBody(result, wire.body()));
    }

    @Test
    void signedPayloadWithDifferentBodyFailsAtEndOfStream() {
        byte[] body = "the real body".getBytes(StandardCharsets.UTF_8);
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(body).signedPayload().sign();
        AuthResult result = authenticate(wire);
        byte[] other = "the fake body".getBytes(StandardCharsets.UTF_8);
        AuthFailureIOException e = assertThrows(AuthFailureIOException.class, () -> readBody(result, other));
        assertEquals("XAmzContentSHA256Mismatch", e.failure().s3Code());
        assertEquals(400, e.failure().httpStatus());
    }

    @Test
    void signedPayloadTruncatedFailsAtEndOfStream() {
        byte[] body = "the real body".getBytes(StandardCharsets.UTF_8);
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(body).signedPayload().sign();
        AuthResult result = authenticate(wire);
        byte[] truncated = java.util.Arrays.copyOf(body, body.length - 1);
        AuthFailureIOException e = assertThrows(AuthFailureIOException.class, () -> readBody(result, truncated));
        assertEquals("XAmzContentSHA256Mismatch", e.failure().s3Code());
    }

    @Test
    void aSignatureForAnotherRegionIsRefusedNamingTheRegion() {
        AuthException e = rejected(spec().region("us-west-2").sign(), "AuthorizationHeaderMalformed");
        assertEquals(400, e.httpStatus());
        assertEquals("The authorization header is malformed; the region 'us-west-2' is wrong; expecting 'us-east-1'",
                e.getMessage());
        assertEquals("us-east-1", e.region());
    }

    @Test
    void aUrlPresignedForAnotherRegionIsRefusedNamingTheRegion() {
        Wire url = spec().region("eu-central-1").presigned(Duration.ofMinutes(5)).sign();
        AuthException e = rejected(url, "AuthorizationQueryParametersError");
        assertEquals(400, e.httpStatus());
        assertEquals("Error parsing the X-Amz-Credential parameter; the region 'eu-central-1' is wrong; "
                + "expecting 'us-east-1'", e.getMessage());
        assertEquals("us-east-1", e.region());
    }

    @Test
    void theConfiguredRegionIsTheOneAccepted() {
        SigV4Verifier frankfurt = new SigV4Verifier(CREDENTIALS, "eu-central-1", Clock.fixed(NOW, ZoneOffset.UTC),
                SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
        assertEquals(ACCESS_KEY, frankfurt.authenticate(spec().region("eu-central-1").sign().request()).accessKey());
        assertEquals("eu-central-1", rejected(frankfurt, spec().sign(), "AuthorizationHeaderMalformed").region());
    }

    @Test
    void wrongSecretIsRefused() {
        Wire wire = spec().credentials(ACCESS_KEY, "not-the-secret").sign();
        AuthException e = rejected(wire, "SignatureDoesNotMatch");
        assertEquals(403, e.httpStatus());
    }

    @Test
    void anotherUsersSecretIsRefused() {
        Wire wire = spec().credentials(ACCESS_KEY, "anotherSecret").sign();
        rejected(wire, "SignatureDoesNotMatch");
    }

    @Test
    void unknownAccessKeyIsRefused() {
        Wire wire = spec().credentials("AKIAUNKNOWN000000000", SECRET_KEY).sign();
        AuthException e = rejected(wire, "InvalidAccessKeyId");
        assertEquals(403, e.httpStatus());
    }

    @Test
    void alteredSignedHeaderIsRefused() {
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(new byte[3])
                .header("x-amz-meta-color", "blue").header("Content-Type", "text/plain").sign();
        assertEquals(ACCESS_KEY, authenticate(wire).accessKey());
        rejected(wire.withHeader("x-amz-meta-color", "red"), "SignatureDoesNotMatch");
        rejected(wire.withHeader("Content-Type", "text/html"), "SignatureDoesNotMatch");
        rejected(wire.withHeader("Host", "evil.example:9000"), "SignatureDoesNotMatch");
        rejected(wire.withoutHeader("x-amz-meta-color"), "SignatureDoesNotMatch");
    }

    @Test
    void unsignedAmzHeaderIsRefused() {
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(new byte[3]).sign();
        AuthException e = rejected(wire.withHeader("x-amz-acl", "public-read"), "AccessDenied");
        assertTrue(e.getMessage().contains("x-amz-acl"), e.getMessage());
    }

    @Test
    void unsignedOrdinaryHeaderIsTolerated() {
        Wire wire = spec().key("bucket", "k").sign();
        assertEquals(ACCESS_KEY, authenticate(wire.withHeader("User-Agent", "added-by-a-proxy")).accessKey());
    }

    @Test
    void headerValuesAreTrimmedAndSpacesCollapsed() {
        Wire wire = spec().key("bucket", "k").header("x-amz-meta-note", "a   b").sign();
        assertEquals(ACCESS_KEY, authenticate(wire.withHeader("x-amz-meta-note", "  a b  ")).accessKey());
    }

    @Test
    void alteredPathIsRefused() {
        Wire wire = spec().key("bucket", "photos/cat.png").sign();
        rejected(wire.withPath("/bucket/photos/dog.png"), "SignatureDoesNotMatch");
        rejected(wire.withPath("/other/photos/cat.png"), "SignatureDoesNotMatch");
        rejected(wire.withPath("/bucket/photos/cat.png/"), "SignatureDoesNotMatch");
    }

    @Test
    void alteredQueryIsRefused() {
        Wire wire = spec().encodedPath("/bucket").query("prefix", "a").query("max-keys", "5").sign();
        assertEquals(ACCESS_KEY, authenticate(wire).accessKey());
        rejected(wire.withQuery("prefix=b&max-keys=5"), "SignatureDoesNotMatch");
        rejected(wire.withQuery("prefix=a&max-keys=5&delimiter=%2F"), "SignatureDoesNotMatch");
        rejected(wire.withQuery("prefix=a"), "SignatureDoesNotMatch");
        rejected(wire.withQuery(null), "SignatureDoesNotMatch");
    }

    @Test
    void queryOrderOnTheWireDoesNotMatter() {
        Wire wire = spec().encodedPath("/bucket").query("prefix", "a").query("max-keys", "5").sign();
        assertEquals(ACCESS_KEY, authenticate(wire.withQuery("max-keys=5&prefix=a")).accessKey());
    }

    @Test
    void reservedCharactersLeftUnencodedOnTheWireAreAccepted() {
        // The client signed the strict encoding but sent the character as is.
        Wire strict = spec().encodedPath("/bucket/a%21b%28c%29").sign();
        assertEquals(ACCESS_KEY, authenticate(strict.withPath("/bucket/a!b(c)")).accessKey());
        // The client signed exactly what it sent, without re-encoding.
        Wire literal = spec().encodedPath("/bucket/a!b(c)").sign();
        assertEquals(ACCESS_KEY, authenticate(literal).accessKey());
    }

    @Test
    void clockSkewBeyondFifteenMinutesIsRefusedBothWays() {
        Duration skew = SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW;
        rejected(spec().signedAt(NOW.minus(skew).minusSeconds(1)).sign(), "RequestTimeTooSkewed");
        rejected(spec().signedAt(NOW.plus(skew).plusSeconds(1)).sign(), "RequestTimeTooSkewed");
        assertEquals(ACCESS_KEY, authenticate(spec().signedAt(NOW.minus(skew)).sign()).accessKey());
        assertEquals(ACCESS_KEY, authenticate(spec().signedAt(NOW.plus(skew)).sign()).accessKey());
    }

    @Test
    void configuredSkewIsHonoured() {
        SigV4Verifier strict = new SigV4Verifier(CREDENTIALS, "us-east-1", Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(30));
        rejected(strict, spec().signedAt(NOW.minusSeconds(31)).sign(), "RequestTimeTooSkewed");
        Wire withinSkew = spec().signedAt(NOW.minusSeconds(30)).sign();
        assertEquals(ACCESS_KEY, strict.authenticate(withinSkew.request()).accessKey());
    }

    @Test
    void configurationIsValidatedAtConstruction() {
        assertEquals(Duration.ofMinutes(15), SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
        assertThrows(IllegalArgumentException.class,
                () -> new SigV4Verifier(CREDENTIALS, "us-east-1", Clock.systemUTC(), Duration.ofSeconds(-1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CredentialsProvider.of(Map.of("AKIAEMPTYSECRET00000", "")));
        assertTrue(e.getMessage().contains("AKIAEMPTYSECRET00000"));
        assertEquals(java.util.Optional.empty(), CREDENTIALS.secretKey("nobody"));
    }

    @Test
    void presignedUrlIsValidUntilItExpires() {
        Wire wire = spec().key("bucket", "a b/ü.png").presigned(Duration.ofHours(1)).sign();
        assertNull(wire.header("authorization"));
        assertTrue(wire.request().rawQuery().contains("X-Amz-Signature="));
        AuthResult result = verifierAt(NOW.plus(Duration.ofMinutes(59))).authenticate(wire.request());
        assertEquals(ACCESS_KEY, result.accessKey());
        assertEquals(PayloadMode.UNSIGNED, result.payloadMode());
        assertEquals(ACCESS_KEY, verifierAt(NOW.plus(Duration.ofHours(1))).authenticate(wire.request()).accessKey());
        AuthException e = rejected(verifierAt(NOW.plus(Duration.ofHours(1)).plusSeconds(1)), wire, "AccessDenied");
        assertEquals("Request has expired", e.getMessage());
        assertEquals(403, e.httpStatus());
    }

    @Test
    void presignedPutIsAccepted() throws IOException {
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "upload.bin").presigned(Duration.ofMinutes(5))
                .sign();
        AuthResult result = authenticate(wire);
        assertEquals(ACCESS_KEY, result.accessKey());
        byte[] body = {1, 2, 3};
        assertArrayEquals(body, readBody(result, body));
    }

    @Test
    void tamperedPresignedUrlIsRefused() {
        Wire wire = spec().key("bucket", "k").presigned(Duration.ofHours(1)).sign();
        String query = wire.request().rawQuery();
        rejected(wire.withPath("/bucket/other"), "SignatureDoesNotMatch");
        rejected(wire.withQuery(query.replace("X-Amz-Expires=3600", "X-Amz-Expires=7200")), "SignatureDoesNotMatch");
        rejected(wire.withQuery(query + "&response-content-type=text%2Fhtml"), "SignatureDoesNotMatch");
        String signature = query.replaceAll(".*X-Amz-Signature=([0-9a-f]{64}).*", "$1");
        String flipped = (signature.charAt(0) == '0' ? '1' : '0') + signature.substring(1);
        rejected(wire.withQuery(query.replace(signature, flipped)), "SignatureDoesNotMatch");
        rejected(wire.withHeader("x-amz-meta-added", "x"), "AccessDenied");
    }

    @Test
    void presignedUrlFromTheFutureIsRefused() {
        Wire wire = spec().signedAt(NOW.plus(Duration.ofMinutes(16))).presigned(Duration.ofHours(1)).sign();
        AuthException e = rejected(wire, "AccessDenied");
        assertTrue(e.getMessage().contains("not valid yet"), e.getMessage());
        Wire nearFuture = spec().signedAt(NOW.plus(Duration.ofMinutes(14))).presigned(Duration.ofHours(1)).sign();
        assertEquals(ACCESS_KEY, authenticate(nearFuture).accessKey());
    }

    @Test
    void presignedUrlLongerThanAWeekIsRefused() {
        Wire wire = spec().presigned(Duration.ofHours(1)).sign();
        String query = wire.request().rawQuery().replace("X-Amz-Expires=3600", "X-Amz-Expires=604801");
        rejected(wire.withQuery(query), "AuthorizationQueryParametersError");
    }

    @Test
    void presignedUrlMissingAParameterIsRefused() {
        Wire wire = spec().presigned(Duration.ofHours(1)).sign();
        String query = wire.request().rawQuery().replaceAll("&?X-Amz-Expires=3600", "");
        rejected(wire.withQuery(query), "AuthorizationQueryParametersError");
    }

    @Test
    void headerAndQueryAuthenticationTogetherAreRefused() {
        Wire presigned = spec().presigned(Duration.ofHours(1)).sign();
        Wire header = spec().sign();
        rejected(presigned.withHeader("Authorization", header.header("authorization")), "InvalidArgument");
    }

    @Test
    void requestWithoutSignatureIsAnonymous() {
        SignedRequest request = new SignedRequest("GET", "/bucket/k", null, Map.of("Host", List.of("127.0.0.1")));
        AuthResult result = verifierAt(NOW).authenticate(request);
        assertTrue(result.isAnonymous());
        assertNull(result.accessKey());
        assertEquals(PayloadMode.UNSIGNED, result.payloadMode());
    }

    @Test
    void malformedAuthorizationHeadersAreRefused() {
        Wire wire = spec().sign();
        String authorization = wire.header("authorization");
        rejected(wire.withHeader("Authorization", authorization.replace("SignedHeaders=", "Headers=")),
                "AuthorizationHeaderMalformed");
        rejected(wire.withHeader("Authorization", authorization.replaceAll(", Signature=.*", "")),
                "AuthorizationHeaderMalformed");
        rejected(wire.withHeader("Authorization", authorization.replace("/s3/", "/iam/")),
                "AuthorizationHeaderMalformed");
        rejected(wire.withHeader("Authorization", authorization.replace("/aws4_request", "/aws5_request")),
                "AuthorizationHeaderMalformed");
        rejected(wire.withHeader("Authorization", authorization.replace("/20260314/", "/20260313/")),
                "AuthorizationHeaderMalformed");
        rejected(wire.withHeader("Authorization", "AWS " + ACCESS_KEY + ":c2lnbmF0dXJl"), "InvalidArgument");
        rejected(wire.withHeader("x-amz-date", "2026-03-14T15:09:26Z"), "AccessDenied");
    }

    @Test
    void aUrlPresignedWithSignatureVersion2IsRefusedAsUnsupported() {
        Wire wire = spec().sign().withoutHeader("Authorization");
        AuthException e = rejected(wire.withQuery("AWSAccessKeyId=" + ACCESS_KEY + "&Expires=1795496000&Signature=c2ln"),
                "InvalidRequest");
        assertTrue(e.getMessage().contains("AWS4-HMAC-SHA256"), e.getMessage());
    }

    @Test
    void missingContentSha256IsRefused() {
        Wire wire = spec().sign();
        String authorization = wire.header("authorization").replace("x-amz-content-sha256;", "");
        rejected(wire.withoutHeader("x-amz-content-sha256").withHeader("Authorization", authorization),
                "InvalidRequest");
    }

    @Test
    void unknownPayloadModesAreRefused() {
        Wire wire = spec().sign();
        rejected(wire.withHeader("x-amz-content-sha256", "NOT-A-HASH"), "InvalidArgument");
        rejected(wire.withHeader("x-amz-content-sha256", "STREAMING-AWS4-HMAC-SHA256-EVENTS"), "NotImplemented");
    }

    @Test
    void secretsNeverAppearInResultsOrExceptions() {
        Wire wire = spec().method(SdkHttpMethod.PUT).body(new byte[1]).chunked(true, null).sign();
        AuthResult result = authenticate(wire);
        assertFalse(result.toString().contains(SECRET_KEY));
        assertFalse(CREDENTIALS.toString().contains(SECRET_KEY));
        AuthException e = rejected(spec().credentials(ACCESS_KEY, "wrong").sign(), "SignatureDoesNotMatch");
        assertFalse(e.toString().contains("wrong"));
    }

    @Test
    void nonAsciiHeaderIsAcceptedWhetherTheServerDecodedItAsUtf8OrLatin1() {
        String value = "Zoë – 東京";
        Wire wire = spec().key("bucket", "k").header("x-amz-meta-name", value).sign();
        assertEquals(ACCESS_KEY, authenticate(wire).accessKey());
        String latin1 = new String(value.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        assertEquals(ACCESS_KEY, authenticate(wire.withHeader("x-amz-meta-name", latin1)).accessKey());
        rejected(wire.withHeader("x-amz-meta-name", "Zoe – 東京"), "SignatureDoesNotMatch");
    }

    @Test
    void verifiedPayloadHashIsOfferedAfterEndOfStream() throws IOException {
        byte[] body = "hash me".getBytes(StandardCharsets.UTF_8);
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(body).signedPayload().sign();
        AuthResult result = authenticate(wire);
        InputStream in = result.wrapBody(new ByteArrayInputStream(wire.body()));
        assertTrue(result.verifiedPayloadSha256().isEmpty());
        in.readAllBytes();
        assertEquals(wire.header("x-amz-content-sha256"), result.verifiedPayloadSha256().orElseThrow());
        assertThrows(IllegalStateException.class, () -> result.wrapBody(new ByteArrayInputStream(body)));
    }

    @Test
    void anonymousRequestMayStreamAnUnsignedTrailerButNotSignedChunks() throws IOException {
        byte[] data = "anonymous data".getBytes(StandardCharsets.UTF_8);
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(data)
                .chunked(false, software.amazon.awssdk.checksums.DefaultChecksumAlgorithm.CRC32).sign()
                .withoutHeader("Authorization");
        AuthResult result = authenticate(wire);
        assertTrue(result.isAnonymous());
        assertEquals(PayloadMode.STREAMING_UNSIGNED_TRAILER, result.payloadMode());
        assertArrayEquals(data, readBody(result, wire.body()));
        assertEquals(ChecksumAlgorithm.CRC32.checksum(data), result.trailers().get("x-amz-checksum-crc32"));

        Wire signedChunks = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(data).chunked(true, null).sign()
                .withoutHeader("Authorization");
        rejected(signedChunks, "AccessDenied");
    }

    @Test
    void partialPresignedParametersAreRefusedNotAnonymous() {
        Wire wire = spec().key("bucket", "k").sign().withoutHeader("Authorization")
                .withQuery("X-Amz-Credential=" + ACCESS_KEY + "%2F20260314%2Fus-east-1%2Fs3%2Faws4_request");
        rejected(wire, "AuthorizationQueryParametersError");
    }

    @Test
    void unknownTrailerChecksumIsRefused() {
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(new byte[5])
                .chunked(true, software.amazon.awssdk.checksums.DefaultChecksumAlgorithm.CRC32).sign();
        assertEquals("STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER", wire.header("x-amz-content-sha256"));
        rejected(wire.withHeader("x-amz-trailer", "x-amz-checksum-md5"), "InvalidRequest");
    }

    // The examples published with the S3 SigV4 documentation.
    private static final String DOC_ACCESS_KEY = "AKIAIOSFODNN7EXAMPLE";
    private static final String DOC_SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    private static final Instant DOC_TIME = Instant.parse("2013-05-24T00:00:00Z");
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private static SigV4Verifier docVerifier() {
        return new SigV4Verifier(CredentialsProvider.of(Map.of(DOC_ACCESS_KEY, DOC_SECRET_KEY)), "us-east-1",
                Clock.fixed(DOC_TIME, ZoneOffset.UTC), SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
    }

    private static SignedRequest docRequest(String method, String path, String query, String signedHeaders,
                                            String signature, String... headerPairs) {
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 0; i < headerPairs.length; i += 2) {
            headers.put(headerPairs[i], List.of(headerPairs[i + 1]));
        }
        if (signature != null) {
            headers.put("Authorization", List.of("AWS4-HMAC-SHA256 Credential=" + DOC_ACCESS_KEY
                    + "/20130524/us-east-1/s3/aws4_request,SignedHeaders=" + signedHeaders
                    + ",Signature=" + signature));
        }
        return new SignedRequest(method, path, query, headers);
    }

    @Test
    void documentedGetObjectExample() {
        SignedRequest request = docRequest("GET", "/test.txt", null, "host;range;x-amz-content-sha256;x-amz-date",
                "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
                "Host", "examplebucket.s3.amazonaws.com", "Range", "bytes=0-9",
                "x-amz-content-sha256", EMPTY_SHA256, "x-amz-date", "20130524T000000Z");
        assertEquals(DOC_ACCESS_KEY, docVerifier().authenticate(request).accessKey());
    }

    @Test
    void documentedPutObjectExample() throws IOException {
        String bodySha256 = "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072";
        SignedRequest request = docRequest("PUT", "/test%24file.text", null,
                "date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
                "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
                "Host", "examplebucket.s3.amazonaws.com", "Date", "Fri, 24 May 2013 00:00:00 GMT",
                "x-amz-date", "20130524T000000Z", "x-amz-storage-class", "REDUCED_REDUNDANCY",
                "x-amz-content-sha256", bodySha256);
        AuthResult result = docVerifier().authenticate(request);
        byte[] body = "Welcome to Amazon S3.".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(body, readBody(result, body));
    }

    @Test
    void documentedListObjectsAndLifecycleExamples() {
        String[] headers = {"Host", "examplebucket.s3.amazonaws.com", "x-amz-date", "20130524T000000Z",
            "x-amz-content-sha256", EMPTY_SHA256};
        SignedRequest list = docRequest("GET", "/", "max-keys=2&prefix=J", "host;x-amz-content-sha256;x-amz-date",
                "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7", headers);
        assertEquals(DOC_ACCESS_KEY, docVerifier().authenticate(list).accessKey());
        SignedRequest lifecycle = docRequest("GET", "/", "lifecycle", "host;x-amz-content-sha256;x-amz-date",
                "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543", headers);
        assertEquals(DOC_ACCESS_KEY, docVerifier().authenticate(lifecycle).accessKey());
    }

    @Test
    void documentedPresignedUrlExample() {
        String query = "X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404";
        SignedRequest request = docRequest("GET", "/test.txt", query, null, null,
                "Host", "examplebucket.s3.amazonaws.com");
        assertEquals(DOC_ACCESS_KEY, docVerifier().authenticate(request).accessKey());
    }
}
