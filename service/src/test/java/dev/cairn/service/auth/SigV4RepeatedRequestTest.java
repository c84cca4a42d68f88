package dev.cairn.service.auth;

import static dev.cairn.service.auth.SdkSigning.ACCESS_KEY;
import static dev.cairn.service.auth.SdkSigning.NOW;
import static dev.cairn.service.auth.SdkSigning.SECRET_KEY;
import static dev.cairn.service.auth.SdkSigning.spec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cairn.service.auth.SdkSigning.Wire;
import dev.cairn.service.keys.AccessKey;
import dev.cairn.service.keys.Grant;
import dev.cairn.service.keys.KeyFile;
import dev.cairn.service.keys.KeyRing;
import dev.cairn.service.keys.Role;
import dev.cairn.store.MovableClock;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.http.SdkHttpMethod;

/**
 * A request the verifier has seen before (the same presigned URL, an Authorization header that
 * differs from the last only in its signature) is refused exactly when a fresh verifier would
 * refuse it: what is remembered never outlives the time window, the secret or the key.
 */
class SigV4RepeatedRequestTest {
    @TempDir
    Path dir;


    private static SigV4Verifier verifier(CredentialsProvider credentials, Clock clock) {
        return new SigV4Verifier(credentials, "us-east-1", clock, SigV4Verifier.DEFAULT_MAX_CLOCK_SKEW);
    }

    private static SigV4Verifier verifier() {
        return verifier(CredentialsProvider.of(Map.of(ACCESS_KEY, SECRET_KEY)), Clock.fixed(NOW, ZoneOffset.UTC));
    }

    private static void accepted(SigV4Verifier verifier, Wire wire) {
        assertEquals(ACCESS_KEY, verifier.authenticate(wire.request()).accessKey());
    }

    private static void refused(SigV4Verifier verifier, Wire wire, String code) {
        AuthException e = assertThrows(AuthException.class, () -> verifier.authenticate(wire.request()));
        assertEquals(code, e.s3Code(), e.getMessage());
    }

    /** Each refusal also by a fresh verifier: the remembered URL changes nothing. */
    private static void refusedByBoth(SigV4Verifier seasoned, Wire wire, String code) {
        refused(seasoned, wire, code);
        refused(verifier(), wire, code);
    }

    /** The outcome of a request: the access key, or the error code. */
    private static String outcome(SigV4Verifier verifier, Wire wire) {
        try {
            return verifier.authenticate(wire.request()).accessKey();
        } catch (AuthException e) {
            return e.s3Code();
        }
    }

    /** The same outcome as a fresh verifier's, after the request was repeated. */
    private static void asFresh(SigV4Verifier seasoned, Wire wire) {
        String fresh = outcome(verifier(), wire);
        assertEquals(fresh, outcome(seasoned, wire));
        assertEquals(fresh, outcome(seasoned, wire));
    }

    @Test
    void aRepeatedPresignedUrlIsStillCheckedForTimeAndExpiry() {
        MovableClock clock = new MovableClock(NOW);
        SigV4Verifier verifier = verifier(CredentialsProvider.of(Map.of(ACCESS_KEY, SECRET_KEY)), clock);
        Wire url = spec().key("bucket", "photos/a.jpg").presigned(Duration.ofMinutes(10)).sign();
        for (int i = 0; i < 3; i++) {
            accepted(verifier, url);
        }
        clock.set(NOW.plus(Duration.ofMinutes(11)));
        refused(verifier, url, "AccessDenied");
        clock.set(NOW.minus(Duration.ofMinutes(20)));
        refused(verifier, url, "AccessDenied");
        clock.set(NOW.plus(Duration.ofMinutes(5)));
        accepted(verifier, url);
    }

    @Test
    void aRepeatedPresignedUrlCoversOnlyWhatWasSigned() {
        SigV4Verifier verifier = verifier();
        Wire url = spec().key("bucket", "photos/a.jpg").presigned(Duration.ofHours(1)).sign();
        accepted(verifier, url);
        accepted(verifier, url);
        refusedByBoth(verifier, url.withPath("/bucket/photos/b.jpg"), "SignatureDoesNotMatch");
        refusedByBoth(verifier, url.withRequest(new SignedRequest("DELETE", url.request().rawPath(),
                url.request().rawQuery(), url.request().headers())), "SignatureDoesNotMatch");
        refusedByBoth(verifier, url.withHeader("host", "elsewhere.example"), "SignatureDoesNotMatch");
        refusedByBoth(verifier, url.withHeader("x-amz-meta-added", "1"), "AccessDenied");
        String query = url.request().rawQuery();
        refusedByBoth(verifier, url.withQuery(query + "&versionId=x"), "SignatureDoesNotMatch");
        String region = query.replace("%2Fus-east-1%2F", "%2Feu-west-1%2F");
        assertNotEquals(query, region);
        refusedByBoth(verifier, url.withQuery(region), "AuthorizationQueryParametersError");
        refusedByBoth(verifier, url.withQuery(query.replace("%2Fs3%2F", "%2Fec2%2F")), "AuthorizationQueryParametersError");
        String signature = query.replaceAll(".*X-Amz-Signature=([0-9a-f]{64}).*", "$1");
        String flipped = (signature.charAt(0) == '0' ? '1' : '0') + signature.substring(1);
        refusedByBoth(verifier, url.withQuery(query.replace(signature, flipped)), "SignatureDoesNotMatch");
        // A second signature parameter in front: the URL is looked up under another value, and checked.
        asFresh(verifier, url.withQuery("X-Amz-Signature=" + flipped + "&" + query));
        asFresh(verifier, url.withQuery(query + "&X-Amz-Signature=" + flipped));
        refusedByBoth(verifier, url.withHeader("Authorization", "AWS4-HMAC-SHA256 Credential=x"), "InvalidArgument");
        accepted(verifier, url);
    }

    @Test
    void aRepeatedPresignedUrlFollowsTheSecret() {
        AtomicReference<String> secret = new AtomicReference<>(SECRET_KEY);
        CredentialsProvider rotating = accessKey -> accessKey.equals(ACCESS_KEY)
                ? Optional.ofNullable(secret.get()) : Optional.empty();
        SigV4Verifier verifier = verifier(rotating, Clock.fixed(NOW, ZoneOffset.UTC));
        Wire url = spec().presigned(Duration.ofHours(1)).sign();
        accepted(verifier, url);
        accepted(verifier, url);
        secret.set("theNewSecret");
        refused(verifier, url, "SignatureDoesNotMatch");
        secret.set(null);
        refused(verifier, url, "InvalidAccessKeyId");
        secret.set(SECRET_KEY);
        accepted(verifier, url);
    }

    @Test
    void aKeyRingReloadEndsARepeatedPresignedUrl() throws Exception {
        Path file = dir.resolve("keys");
        KeyFile.write(file, List.of(new AccessKey(ACCESS_KEY, SECRET_KEY, List.of(new Grant(Role.READ_ONLY, null)))));
        try (KeyRing ring = new KeyRing(List.of(), file, false)) {
            SigV4Verifier verifier = verifier(ring, Clock.fixed(NOW, ZoneOffset.UTC));
            Wire url = spec().presigned(Duration.ofHours(1)).sign();
            Wire header = spec().sign();
            accepted(verifier, url);
            accepted(verifier, url);
            accepted(verifier, header);
            KeyFile.write(file, List.of(new AccessKey(ACCESS_KEY, "aRotatedSecret-0001",
                    List.of(new Grant(Role.READ_ONLY, null)))));
            assertTrue(ring.reloadIfChanged());
            refused(verifier, url, "SignatureDoesNotMatch");
            refused(verifier, header, "SignatureDoesNotMatch");
            accepted(verifier, spec().credentials(ACCESS_KEY, "aRotatedSecret-0001").presigned(Duration.ofHours(1)).sign());
            KeyFile.write(file, List.of(new AccessKey("ANOTHERKEY", "another-secret-0001",
                    List.of(new Grant(Role.READ_ONLY, null)))));
            assertTrue(ring.reloadIfChanged());
            refused(verifier, url, "InvalidAccessKeyId");
            refused(verifier, header, "InvalidAccessKeyId");
        }
    }

    @Test
    void headersDifferingOnlyInTheirSignatureAreCheckedInFull() {
        MovableClock clock = new MovableClock(NOW);
        SigV4Verifier verifier = verifier(CredentialsProvider.of(Map.of(ACCESS_KEY, SECRET_KEY)), clock);
        Wire first = spec().key("bucket", "a").sign();
        Wire second = spec().key("bucket", "b").sign();
        accepted(verifier, first);
        accepted(verifier, second);
        String authorization = second.header("authorization");
        String signature = authorization.substring(authorization.length() - 64);
        String prefix = authorization.substring(0, authorization.length() - 64);
        // The other request's signature under the same prefix.
        String firstAuthorization = first.header("authorization");
        String firstSignature = firstAuthorization.substring(firstAuthorization.length() - 64);
        refusedByBoth(verifier, second.withHeader("Authorization", prefix + firstSignature), "SignatureDoesNotMatch");
        refusedByBoth(verifier, second.withHeader("Authorization", prefix + signature.toUpperCase()),
                "AuthorizationHeaderMalformed");
        refusedByBoth(verifier, second.withHeader("Authorization", prefix + signature + "0"),
                "AuthorizationHeaderMalformed");
        refusedByBoth(verifier, second.withHeader("Authorization", prefix + signature.substring(1) + "g"),
                "AuthorizationHeaderMalformed");
        asFresh(verifier, second.withHeader("Authorization", prefix + signature + ", Signature=" + signature));
        asFresh(verifier, second.withHeader("Authorization", prefix + firstSignature + ", Signature=" + signature));
        asFresh(verifier, second.withHeader("Authorization", prefix + " " + signature));
        refusedByBoth(verifier, second.withHeader("x-amz-date", "20260314T150927Z"), "SignatureDoesNotMatch");
        refusedByBoth(verifier, second.withoutHeader("x-amz-date"), "AccessDenied");
        refusedByBoth(verifier, second.withHeader("x-amz-meta-added", "1"), "AccessDenied");
        accepted(verifier, second);
        clock.set(NOW.plus(Duration.ofMinutes(16)));
        refused(verifier, second, "RequestTimeTooSkewed");
    }

    @Test
    void aPrefixWhoseLastComponentIsNotTheSignatureIsNotReused() {
        SigV4Verifier verifier = verifier();
        Wire wire = spec().sign();
        String authorization = wire.header("authorization");
        String signature = authorization.substring(authorization.length() - 64);
        // Components reordered: the header ends with the signed-header list, not the signature.
        String credential = authorization.replaceAll(".*Credential=([^,]*),.*", "$1");
        String signedHeaders = authorization.replaceAll(".*SignedHeaders=([^,]*),.*", "$1");
        String reordered = "AWS4-HMAC-SHA256 Credential=" + credential + ", Signature=" + signature
                + ", SignedHeaders=" + signedHeaders;
        accepted(verifier, wire.withHeader("Authorization", reordered));
        accepted(verifier, wire);
        accepted(verifier, wire.withHeader("Authorization", reordered));
        accepted(verifier, wire);
    }

    @Test
    void theRememberedUrlsAreBounded() {
        VerifiedPresignedUrls urls = new VerifiedPresignedUrls();
        Wire url = spec().presigned(Duration.ofHours(1)).sign();
        ClaimedSignature claim = new ClaimedSignature(ACCESS_KEY, "20260314", "us-east-1", "host", List.of("host"),
                "0".repeat(64), "20260314T150926Z", NOW, true, 3600);
        for (int i = 0; i < VerifiedPresignedUrls.LIMIT * 2 + 3; i++) {
            String query = "X-Amz-Signature=%064d".formatted(i);
            urls.put(url.withQuery(query).request(), "UNSIGNED-PAYLOAD", claim, new byte[32]);
            assertTrue(urls.size() <= VerifiedPresignedUrls.LIMIT);
        }
        Map<String, List<String>> headers = new LinkedHashMap<>(url.request().headers());
        SignedRequest unsigned = new SignedRequest(SdkHttpMethod.GET.name(), "/bucket/key", "a=b", headers);
        urls.put(unsigned, "UNSIGNED-PAYLOAD", claim, new byte[32]);
        assertEquals(null, urls.get("a=b"));
    }
}
