package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The order is that of the strings' UTF-8 bytes, unsigned, for strings of every plane. */
class Utf8OrderTest {
    private static final String[] PIECES = {"a", "b", "z", "/", "é", "ÿ", "\u07ff", "\u0800", "\ud7ff", "\ue000", "\uffff",
        "\ud83d\ude00", "\ud800\udc00", "\udbff\udfff", "img/", "img/1", ""};

    private static String random(Random r) {
        StringBuilder s = new StringBuilder();
        for (int i = r.nextInt(5); i > 0; i--) {
            s.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return s.toString();
    }

    private static int sign(int v) {
        return Integer.signum(v);
    }

    @Test
    void sortsAsUtf8BytesUnsigned() {
        Random r = new Random(11);
        for (int i = 0; i < 200_000; i++) {
            String a = random(r);
            String b = random(r);
            int bytes = Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
            assertEquals(sign(bytes), sign(Utf8Order.compare(a, b)), a + " vs " + b);
            assertEquals(sign(Utf8Order.byCodePoints(a, b)), sign(Utf8Order.compare(a, b)), a + " vs " + b);
        }
    }

    @Test
    void aCharacterOutsideTheBasicPlaneSortsAfterEveryOneInIt() {
        assertTrue(Utf8Order.compare("\ud83d\ude00", "\uffff") > 0);
        assertTrue(Utf8Order.compare("\uffff", "\ud83d\ude00") < 0);
        assertTrue("\ud83d\ude00".compareTo("\uffff") < 0, "where String.compareTo differs");
        assertTrue(Utf8Order.compare("img/1", "img/10") < 0);
        assertEquals(0, Utf8Order.compare("img/é", "img/é"));
    }
}
