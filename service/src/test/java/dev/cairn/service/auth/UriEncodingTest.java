package dev.cairn.service.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class UriEncodingTest {
    private static final String ALPHABET = "aZ09-_.~/+% &=%2F%2f%41%7E%E2%82%AC%C3%28%zz%4€é";

    @Test
    void strictlyEncodedMeansEncodingTheDecodedFormGivesItBack() {
        long seed = System.nanoTime();
        System.out.println("UriEncodingTest seed " + seed);
        Random random = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int len = random.nextInt(12);
            for (int j = 0; j < len; j++) {
                int at = random.nextInt(ALPHABET.length());
                b.append(ALPHABET, at, Math.min(ALPHABET.length(), at + 1 + random.nextInt(3)));
            }
            String s = b.toString();
            for (boolean keepSlash : new boolean[] {false, true}) {
                if (UriEncoding.isStrictlyEncoded(s, keepSlash)) {
                    String decoded = UriEncoding.decode(s, !keepSlash);
                    String again = decoded == null ? s : UriEncoding.encode(decoded, keepSlash);
                    assertEquals(s, again, "seed " + seed + ", keepSlash " + keepSlash);
                }
            }
        }
    }

    @Test
    void examples() {
        assertTrue(UriEncoding.isStrictlyEncoded("AKID%2F20261121%2Fus-east-1%2Fs3%2Faws4_request", false));
        assertTrue(UriEncoding.isStrictlyEncoded("/bucket/a%20b%E2%82%AC", true));
        assertFalse(UriEncoding.isStrictlyEncoded("a%2fb", false));
        assertFalse(UriEncoding.isStrictlyEncoded("a%41", false));
        assertFalse(UriEncoding.isStrictlyEncoded("a+b", false));
        assertFalse(UriEncoding.isStrictlyEncoded("a/b", false));
        assertFalse(UriEncoding.isStrictlyEncoded("/a%2Fb", true));
        assertFalse(UriEncoding.isStrictlyEncoded("a%2", false));
        assertEquals("a b/\u20ac", UriEncoding.decode("a+b%2F%E2%82%AC", true));
        assertEquals("a+b", UriEncoding.decode("a+b", false));
        assertEquals(null, UriEncoding.decode("%C3%28", true));
        assertEquals(null, UriEncoding.decode("%G1", true));
        assertEquals("a\uFFFDb", UriEncoding.decodeLenient("a%FFb", false));
        assertEquals("a+b\u20ac", UriEncoding.decodeLenient("a+b%e2%82%ac", false));
        assertEquals(null, UriEncoding.decodeLenient("a%2", true));
        // Digits of other scripts are not hex digits: "%٣٣" must not decode as "3".
        assertEquals(null, UriEncoding.decode("%\u0663\u0663", false));
        assertEquals(null, UriEncoding.decodeLenient("a%\uFF13\uFF13", false));
    }
}
