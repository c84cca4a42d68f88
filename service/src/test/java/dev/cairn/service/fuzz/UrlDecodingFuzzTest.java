package dev.cairn.service.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.cairn.service.auth.UriEncoding;
import dev.cairn.service.s3.S3Exception;
import dev.cairn.service.s3.UrlCodec;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Percent-decoding of paths and queries: any input decodes or is refused with S3's error, and
 * what the service encodes decodes back to itself.
 */
class UrlDecodingFuzzTest {

    @FuzzTest(maxDuration = "10s")
    void decodeAndRoundTrip(byte[] data) throws Exception {
        String s = new String(data, StandardCharsets.UTF_8);
        for (boolean plus : new boolean[] {false, true}) {
            String lenient = decodeOrNull(s, plus);
            String strict = UriEncoding.decode(s, plus);
            if (strict != null) {
                assertNotNull(lenient, "strict decoding accepted what lenient decoding refused: " + s);
                assertEquals(strict, lenient);
            }
            if (lenient != null) {
                String encoded = UriEncoding.encode(lenient, !plus);
                assertEquals(lenient, UriEncoding.decodeLenient(encoded, false), "encode then decode of " + lenient);
            }
        }
        if (isWellFormed(s)) {
            for (boolean keepSlash : new boolean[] {false, true}) {
                String encoded = UriEncoding.encode(s, keepSlash);
                assertEquals(s, UriEncoding.decode(encoded, false), "round trip of " + s);
                assertEquals(s, UriEncoding.decode(encoded, true), "round trip (plus as space) of " + s);
            }
        }
        try {
            Map<String, String> query = UrlCodec.parseQuery(s);
            for (var e : query.entrySet()) {
                assertNotNull(e.getKey());
                assertNotNull(e.getValue());
            }
        } catch (S3Exception refused) {
            assertEquals(400, refused.status());
        }
    }

    private static String decodeOrNull(String s, boolean plus) {
        try {
            return UrlCodec.decode(s, plus);
        } catch (S3Exception refused) {
            assertEquals("InvalidArgument", refused.code());
            return null;
        }
    }

    /** No lone surrogate: such a string has no UTF-8 form to round-trip through. */
    private static boolean isWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
