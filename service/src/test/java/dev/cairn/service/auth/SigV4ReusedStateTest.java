package dev.cairn.service.auth;

import static dev.cairn.service.auth.SdkSigning.ACCESS_KEY;
import static dev.cairn.service.auth.SdkSigning.NOW;
import static dev.cairn.service.auth.SdkSigning.SECRET_KEY;
import static dev.cairn.service.auth.SdkSigning.spec;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.service.auth.SdkSigning.Wire;
import dev.cairn.store.MovableClock;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.SdkHttpMethod;

/**
 * What the verifier keeps between requests (the signing key of the day, each thread's MAC, digest
 * and canonical-request buffer) never lets a request through that a fresh verifier would refuse.
 */
class SigV4ReusedStateTest {
    private static final Instant BEFORE_MIDNIGHT = Instant.parse("2026-03-14T23:59:50Z");
    private static final Instant AFTER_MIDNIGHT = Instant.parse("2026-03-15T00:00:10Z");

    /** A clock the test moves. */

    private static void refused(SigV4Verifier verifier, Wire wire, String code) {
        AuthException e = assertThrows(AuthException.class, () -> verifier.authenticate(wire.request()));
        assertEquals(code, e.s3Code(), e.getMessage());
    }

    @Test
    void signingKeyFollowsTheUtcDateAcrossMidnight() {
        MovableClock clock = new MovableClock(BEFORE_MIDNIGHT);
        SigV4Verifier verifier = new SigV4Verifier(CredentialsProvider.of(Map.of(ACCESS_KEY, SECRET_KEY)), "us-east-1", clock,
                SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
        Wire yesterday = spec().signedAt(BEFORE_MIDNIGHT).sign();
        Wire today = spec().signedAt(AFTER_MIDNIGHT).sign();
        assertEquals(ACCESS_KEY, verifier.authenticate(yesterday.request()).accessKey());
        clock.set(AFTER_MIDNIGHT);
        // Both dates are within the skew: each is checked under its own day's key, in any order.
        assertEquals(ACCESS_KEY, verifier.authenticate(today.request()).accessKey());
        assertEquals(ACCESS_KEY, verifier.authenticate(yesterday.request()).accessKey());
        assertEquals(ACCESS_KEY, verifier.authenticate(today.request()).accessKey());
        // A scope naming yesterday on a request dated today is refused, whichever key is at hand.
        String authorization = today.header("authorization").replace("/20260315/", "/20260314/");
        refused(verifier, today.withHeader("Authorization", authorization), "AuthorizationHeaderMalformed");
        // A signature made with yesterday's key over today's request does not match.
        String yesterdaySignature = yesterday.header("authorization").replaceAll(".*Signature=", "");
        String forged = today.header("authorization").replaceAll("Signature=.*", "Signature=" + yesterdaySignature);
        refused(verifier, today.withHeader("Authorization", forged), "SignatureDoesNotMatch");
        clock.set(AFTER_MIDNIGHT.plus(Duration.ofMinutes(20)));
        refused(verifier, yesterday, "RequestTimeTooSkewed");
        refused(verifier, today, "RequestTimeTooSkewed");
    }

    @Test
    void aChangedSecretIsUsedAtOnce() {
        AtomicReference<String> secret = new AtomicReference<>(SECRET_KEY);
        CredentialsProvider rotating = accessKey -> accessKey.equals(ACCESS_KEY)
                ? Optional.of(secret.get()) : Optional.empty();
        SigV4Verifier verifier = new SigV4Verifier(rotating, "us-east-1", Clock.fixed(NOW, ZoneOffset.UTC),
                SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
        Wire old = spec().sign();
        assertEquals(ACCESS_KEY, verifier.authenticate(old.request()).accessKey());
        secret.set("theNewSecret");
        refused(verifier, old, "SignatureDoesNotMatch");
        Wire renewed = spec().credentials(ACCESS_KEY, "theNewSecret").sign();
        assertEquals(ACCESS_KEY, verifier.authenticate(renewed.request()).accessKey());
        secret.set(SECRET_KEY);
        refused(verifier, renewed, "SignatureDoesNotMatch");
        assertEquals(ACCESS_KEY, verifier.authenticate(old.request()).accessKey());
    }

    @Test
    void acceptedAndRefusedRequestsAlternateOnOneThread() {
        SigV4Verifier verifier = new SigV4Verifier(CredentialsProvider.of(Map.of(ACCESS_KEY, SECRET_KEY)), "us-east-1",
                Clock.fixed(NOW, ZoneOffset.UTC), SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
        Wire header = spec().key("bucket", "photos/a b+c.jpg").header("x-amz-meta-note", "a  b").sign();
        Wire presigned = spec().key("bucket", "k/ü").presigned(Duration.ofHours(1)).sign();
        Wire longer = spec().key("bucket", "x".repeat(3000)).header("x-amz-meta-long", "y".repeat(3000)).sign();
        for (int i = 0; i < 3; i++) {
            assertEquals(ACCESS_KEY, verifier.authenticate(longer.request()).accessKey());
            refused(verifier, header.withHeader("x-amz-meta-note", "a b c"), "SignatureDoesNotMatch");
            assertEquals(ACCESS_KEY, verifier.authenticate(header.request()).accessKey());
            refused(verifier, presigned.withPath("/bucket/k/u"), "SignatureDoesNotMatch");
            assertEquals(ACCESS_KEY, verifier.authenticate(presigned.request()).accessKey());
            refused(verifier, header.withPath("/bucket/photos/a%20b%2Bd.jpg"), "SignatureDoesNotMatch");
        }
    }

    @Test
    void authorizationComponentsAreParsedAsBefore() {
        SigV4Verifier verifier = new SigV4Verifier(CredentialsProvider.of(Map.of(ACCESS_KEY, SECRET_KEY)), "us-east-1",
                Clock.fixed(NOW, ZoneOffset.UTC), SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
        Wire wire = spec().sign();
        String authorization = wire.header("authorization");
        String spaced = authorization.replace(",", " ,  ").replace("=", " = ");
        assertEquals(ACCESS_KEY, verifier.authenticate(wire.withHeader("Authorization", spaced).request()).accessKey());
        assertEquals(ACCESS_KEY,
                verifier.authenticate(wire.withHeader("Authorization", authorization + ",,").request()).accessKey());
        for (String malformed : List.of(authorization.replaceFirst(",", ", ,"), authorization.replaceFirst(",", ",,"),
                authorization.replace("Credential=", "=Credential"), "AWS4-HMAC-SHA256 ,,,", authorization.replace("Credential=", "Credential "),
                authorization.replace("/20260314/", "/20260314/extra/"),
                authorization.replace("Credential=" + ACCESS_KEY + "/", "Credential=/"))) {
            refused(verifier, wire.withHeader("Authorization", malformed), "AuthorizationHeaderMalformed");
        }
    }

    @Test
    void canonicalRequestBytesAreThoseOfTheStringForm() {
        List<String[]> queries = List.of(new String[] {null}, new String[] {"b=2&a=1&a=0&c"},
                new String[] {"x=a b&y=%7e&z=%2f&w=é&v=%E2%82%AC"}, new String[] {"X-Amz-Signature=ff&list-type=2"});
        List<Map<String, List<String>>> headerSets = List.of(
                Map.of("host", List.of("h:1")),
                Map.of("host", List.of("  h  "), "x-amz-meta-a", List.of(" a \t b ", "c"),
                        "x-amz-meta-b", List.of("Zoë – 東京")),
                Map.of("host", List.of("h"), "x-amz-meta-c", List.of("\ud83d\ude00 and \ud83d x")));
        List<String> paths = List.of("", "/b/k", "/b/a b+c", "/b/a%2fb", "/b/%E2%82%AC/ü", "/b//x/");
        for (String path : paths) {
            for (String[] query : queries) {
                for (Map<String, List<String>> headers : headerSets) {
                    SignedRequest request = new SignedRequest("GET", path, query[0], headers);
                    List<String> names = new ArrayList<>(headers.keySet());
                    names.sort(null);
                    String signedHeaders = String.join(";", names);
                    List<CanonicalRequest.QueryParam> params = CanonicalRequest.parseQuery(query[0]);
                    String uri = CanonicalRequest.canonicalUri(path, true);
                    String expected = CanonicalRequest.build("GET", uri,
                            CanonicalRequest.canonicalQuery(params, "X-Amz-Signature", true),
                            CanonicalRequest.canonicalHeaders(request, names), signedHeaders,
                            SigV4Crypto.EMPTY_SHA256);
                    SignatureWorkspace workspace = SignatureWorkspace.get();
                    workspace.canonicalRequest("GET", uri, params, "X-Amz-Signature", request, names, signedHeaders,
                            SigV4Crypto.EMPTY_SHA256);
                    assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), workspace.canonicalBytes(),
                            path + " " + query[0] + " " + headers);
                }
            }
        }
    }

    @Test
    void signatureOverTheBufferIsTheDocumentedOne() {
        // A PUT whose body is signed: the payload hash and every signed header go through the buffer.
        Wire wire = spec().method(SdkHttpMethod.PUT).key("bucket", "k").body(new byte[] {1, 2})
                .header("x-amz-meta-a", "1").signedPayload().sign();
        SigV4Verifier verifier = new SigV4Verifier(CredentialsProvider.of(Map.of(ACCESS_KEY, SECRET_KEY)), "us-east-1",
                Clock.fixed(NOW, ZoneOffset.UTC), SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
        assertEquals(ACCESS_KEY, verifier.authenticate(wire.request()).accessKey());
        String sha = wire.header("x-amz-content-sha256");
        String other = (sha.charAt(0) == '0' ? '1' : '0') + sha.substring(1);
        refused(verifier, wire.withHeader("x-amz-content-sha256", other), "SignatureDoesNotMatch");
    }
}
