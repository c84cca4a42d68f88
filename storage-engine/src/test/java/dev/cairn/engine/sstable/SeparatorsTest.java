package dev.cairn.engine.sstable;

import static dev.cairn.engine.sstable.SSTableTestSupport.key;
import static org.junit.jupiter.api.Assertions.*;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SeparatorsTest {

    @Test
    void shortensWhenAByteCanBeIncremented() {
        byte[] last = key(1, "apple-pie", 5);
        byte[] next = key(1, "cherry", 9);
        byte[] s = Separators.between(last, next);
        assertArrayEquals(new byte[] {0, 1, 'b', -1, -1, -1, -1, -1, -1, -1, -1}, s);
        assertTrue(InternalKeys.COMPARATOR.compare(last, s) <= 0);
        assertTrue(InternalKeys.COMPARATOR.compare(s, next) < 0);
    }

    @Test
    void keepsTheLastKeyWhenNothingShorterFits() {
        byte[] adjacent = key(1, "ab", 1);
        assertSame(adjacent, Separators.between(adjacent, key(1, "ac", 1)), "adjacent bytes");
        byte[] prefix = key(1, "ab", 5);
        assertSame(prefix, Separators.between(prefix, key(1, "abc", 5)), "prefix");
        byte[] version = key(1, "ab", 7);
        assertSame(version, Separators.between(version, key(1, "ab", 5)), "same user key");
        byte[] table = key(1, "zz", 7);
        assertSame(table, Separators.between(table, key(3, "aa", 5)), "different tables keep the table id");
        byte[] high = InternalKeys.encode(1, new byte[] {0x10, (byte) 0xFF, (byte) 0xFF}, 1, (byte) 1);
        assertSame(high, Separators.between(high, InternalKeys.encode(1, new byte[] {0x11}, 1, (byte) 1)),
                "only the first differing byte is tried");
    }

    @Test
    void alwaysSortsBetweenItsArguments() {
        long seed = 4242;
        System.out.println("SeparatorsTest seed " + seed);
        Random random = new Random(seed);
        for (int i = 0; i < 100_000; i++) {
            byte[] a = randomKey(random);
            byte[] b = randomKey(random);
            int c = InternalKeys.COMPARATOR.compare(a, b);
            if (c == 0) {
                continue;
            }
            byte[] last = c < 0 ? a : b;
            byte[] next = c < 0 ? b : a;
            byte[] s = Separators.between(last, next);
            assertTrue(InternalKeys.COMPARATOR.compare(last, s) <= 0, "seed " + seed + " iteration " + i);
            assertTrue(InternalKeys.COMPARATOR.compare(s, next) < 0, "seed " + seed + " iteration " + i);
            assertTrue(s.length <= last.length && s.length >= Block.MIN_KEY_BYTES);
            assertEquals(InternalKeys.tableId(last), InternalKeys.tableId(s));
        }
    }

    private static byte[] randomKey(Random random) {
        byte[] user = new byte[random.nextInt(5)];
        for (int i = 0; i < user.length; i++) {
            user[i] = (byte) (random.nextBoolean() ? random.nextInt(256) : 0xFE + random.nextInt(2));
        }
        return InternalKeys.encode(random.nextInt(2) * 255, user, random.nextInt(3), (byte) random.nextInt(3));
    }
}
