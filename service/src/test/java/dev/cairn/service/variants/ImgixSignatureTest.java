package dev.cairn.service.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ImgixSignatureTest {
    private static final String TOKEN = "FOO123bar";

    @Test
    void theSignatureIsTheMd5OfTokenPathAndQuery() throws Exception {
        // imgix: s = md5(token + path + "?" + query), the query as sent and without s.
        String expected = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5")
                .digest("FOO123bar/users/1.png?w=400&h=300".getBytes()));
        assertEquals(expected, ImgixSignature.sign(TOKEN, "/users/1.png", "w=400&h=300"));
        assertTrue(ImgixSignature.verify(TOKEN, "/users/1.png", "w=400&h=300&s=" + expected));
    }

    @Test
    void withoutOtherParametersThePathAloneIsSigned() {
        String s = ImgixSignature.sign(TOKEN, "/b/k.jpg", "");
        assertTrue(ImgixSignature.verify(TOKEN, "/b/k.jpg", "s=" + s));
    }

    @Test
    void wrongMissingOrReplayedSignaturesFail() {
        String s = ImgixSignature.sign(TOKEN, "/b/k.jpg", "w=100");
        assertFalse(ImgixSignature.verify(TOKEN, "/b/k.jpg", "w=100"), "missing");
        assertFalse(ImgixSignature.verify(TOKEN, "/b/k.jpg", "w=100&s=" + s.replace(s.charAt(0), s.charAt(0) == 'a' ? 'b' : 'a')), "wrong");
        assertFalse(ImgixSignature.verify(TOKEN, "/b/other.jpg", "w=100&s=" + s), "replayed on another source");
        assertFalse(ImgixSignature.verify(TOKEN, "/b/k.jpg", "w=200&s=" + s), "other options");
        assertFalse(ImgixSignature.verify("other-token", "/b/k.jpg", "w=100&s=" + s), "another token");
        assertFalse(ImgixSignature.verify(null, "/b/k.jpg", "w=100&s=" + s), "no token set");
        assertFalse(ImgixSignature.verify(TOKEN, "/b/k.jpg", "w=100&s=" + s + "&s=" + s), "two signatures");
    }
}
