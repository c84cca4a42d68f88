package dev.cairn.service.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * SigV4 parsing and verification: the Authorization header, presigned query parameters,
 * x-amz-date and Date, x-amz-content-sha256, x-amz-trailer, the canonical request and the body
 * verification that follows. The input is an HTTP request head ({@code METHOD SP target LF},
 * {@code name: value} lines, an empty line, the body). With a header {@code x-fuzz-sign} the
 * harness replaces Authorization by a correct signature over the request as the service will see
 * it, so the fuzzer gets past the signature check into the payload modes and the body. Any request
 * is authenticated or refused with an {@link AuthException}; a body read fails only with an
 * {@link IOException}.
 */
class SigV4ParserFuzzTest {
    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");
    private static final String ACCESS_KEY = "AKFUZZ";
    private static final String SECRET = "fuzz-secret";
    private static final SigV4Verifier VERIFIER = new SigV4Verifier(
            new MapCredentialsProvider(Map.of(ACCESS_KEY, SECRET)), "us-east-1", Clock.fixed(NOW, ZoneOffset.UTC),
            Duration.ofMinutes(15));

    @FuzzTest(maxDuration = "10s")
    void authenticate(byte[] data) {
        int headEnd = indexOfBlankLine(data);
        String head = new String(data, 0, headEnd < 0 ? data.length : headEnd, StandardCharsets.ISO_8859_1);
        byte[] body = headEnd < 0 ? new byte[0] : Arrays.copyOfRange(data, headEnd + 2, data.length);
        String[] lines = head.split("\n");
        if (lines.length == 0) {
            return;
        }
        String[] requestLine = lines[0].split(" ", 2);
        if (requestLine.length != 2) {
            return;
        }
        String target = requestLine[1];
        int q = target.indexOf('?');
        String rawPath = q < 0 ? target : target.substring(0, q);
        String rawQuery = q < 0 ? null : target.substring(q + 1);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        boolean sign = false;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
            if (name.equals("x-fuzz-sign")) {
                sign = true;
                continue;
            }
            headers.computeIfAbsent(name, n -> new ArrayList<>()).add(lines[i].substring(colon + 1));
        }
        SignedRequest request = new SignedRequest(requestLine[0], rawPath, rawQuery, headers);
        if (sign) {
            request = signed(request);
            if (request == null) {
                return;
            }
        }
        AuthResult result;
        try {
            result = VERIFIER.authenticate(request);
        } catch (AuthException refused) {
            assertNotNull(refused.s3Code());
            assertTrue(refused.httpStatus() >= 400 && refused.httpStatus() < 600, "status " + refused.httpStatus());
            return;
        }
        if (!result.isAnonymous()) {
            assertEquals(ACCESS_KEY, result.accessKey());
        }
        try (InputStream in = result.wrapBody(new ByteArrayInputStream(body))) {
            in.readAllBytes();
            if (result.payloadMode() == PayloadMode.SIGNED) {
                assertEquals(result.verifiedPayloadSha256().orElseThrow(),
                        SigV4Crypto.HEX.formatHex(SigV4Crypto.sha256().digest(body)));
            }
        } catch (IOException refused) {
            assertFalse(refused.getMessage() == null || refused.getMessage().isEmpty(), "an error without a message");
        }
    }

    /** The request with a correct Authorization header over all its headers; null if it cannot be signed. */
    private static SignedRequest signed(SignedRequest request) {
        String amzDate = request.firstHeader("x-amz-date");
        String payloadHash = request.firstHeader("x-amz-content-sha256");
        if (amzDate == null || payloadHash == null || amzDate.trim().length() < 8 || request.firstHeader("host") == null) {
            return null;
        }
        amzDate = amzDate.trim();
        String date = amzDate.substring(0, 8);
        String region = "us-east-1";
        Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
        headers.remove("authorization");
        SignedRequest unsigned = new SignedRequest(request.method(), request.rawPath(), request.rawQuery(), headers);
        List<String> names = new ArrayList<>(new TreeSet<>(headers.keySet()));
        String signedHeaders = String.join(";", names);
        if (signedHeaders.contains(",") || signedHeaders.contains(" ")) {
            return null;
        }
        String canonical = CanonicalRequest.build(request.method(), CanonicalRequest.canonicalUri(request.rawPath(), true),
                CanonicalRequest.canonicalQuery(CanonicalRequest.parseQuery(request.rawQuery()), null, true),
                CanonicalRequest.canonicalHeaders(unsigned, names), signedHeaders, payloadHash.trim());
        String scope = date + "/" + region + "/s3/aws4_request";
        String stringToSign = "AWS4-HMAC-SHA256\n" + amzDate + '\n' + scope + '\n' + SigV4Crypto.sha256Hex(canonical);
        String signature = SigV4Crypto.sign(SigV4Crypto.mac(SigV4Crypto.signingKey(SECRET, date, region, "s3")),
                stringToSign);
        headers.put("authorization", List.of("AWS4-HMAC-SHA256 Credential=" + ACCESS_KEY + "/" + scope
                + ", SignedHeaders=" + signedHeaders + ", Signature=" + signature));
        return new SignedRequest(request.method(), request.rawPath(), request.rawQuery(), headers);
    }

    private static int indexOfBlankLine(byte[] data) {
        for (int i = 0; i + 1 < data.length; i++) {
            if (data[i] == '\n' && data[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
