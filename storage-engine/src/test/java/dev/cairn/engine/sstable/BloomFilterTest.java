package dev.cairn.engine.sstable;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BloomFilterTest {

    @Test
    void probeCountFollowsBitsPerKey() {
        assertEquals(7, BloomFilter.probeCount(10));
        assertEquals(1, BloomFilter.probeCount(1));
        assertEquals(30, BloomFilter.probeCount(64));
    }

    @Test
    void falsePositiveRateIsRoughlyAsConfigured() {
        long seed = 0x5EEDL;
        System.out.println("BloomFilterTest seed " + seed);
        Random random = new Random(seed);
        int keys = 20_000;
        int probes = 100_000;
        for (int bitsPerKey : new int[] {6, 10, 16}) {
            long[] hashes = new long[keys];
            byte[][] present = new byte[keys][];
            for (int i = 0; i < keys; i++) {
                present[i] = filterKey(random.nextLong());
                hashes[i] = BloomFilter.hash(present[i]);
            }
            BloomFilter filter = BloomFilter.decode(BloomFilter.build(hashes, keys, bitsPerKey));
            for (byte[] key : present) {
                assertTrue(filter.mayContain(key), "a bloom filter has no false negatives");
            }
            int falsePositives = 0;
            for (int i = 0; i < probes; i++) {
                // Absent keys: present keys are 8 random bytes after a fixed prefix, these 9.
                byte[] absent = ByteBuffer.allocate(11).putShort((short) 1).putLong(random.nextLong())
                        .put((byte) 1).array();
                if (filter.mayContain(absent)) {
                    falsePositives++;
                }
            }
            double rate = (double) falsePositives / probes;
            double expected = Math.pow(1 - Math.exp(-(double) BloomFilter.probeCount(bitsPerKey) / bitsPerKey),
                    BloomFilter.probeCount(bitsPerKey));
            System.out.printf("bits/key %d: false positives %.4f, theory %.4f%n", bitsPerKey, rate, expected);
            assertTrue(rate < expected * 2 + 0.001, "false-positive rate " + rate + " for " + bitsPerKey + " bits/key");
            assertTrue(rate > expected / 4, "a filter this small must show some false positives: " + rate);
        }
    }

    @Test
    void anEmptyFilterContainsNothing() {
        BloomFilter filter = BloomFilter.decode(BloomFilter.build(new long[0], 0, 10));
        assertFalse(filter.mayContain(filterKey(1)));
        assertEquals(64, filter.bitCount());
    }

    @Test
    void malformedContentsAreRejected() {
        assertNull(BloomFilter.decode(new byte[] {1}));
        assertNull(BloomFilter.decode(new byte[] {0, 0, 0}), "zero probes");
        assertNull(BloomFilter.decode(new byte[] {0, 0, 31}), "too many probes");
    }

    private static byte[] filterKey(long random) {
        return ByteBuffer.allocate(10).putShort((short) 1).putLong(random).array();
    }
}
