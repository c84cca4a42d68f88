package dev.cairn.loadtest.generator;

import java.util.SplittableRandom;

/**
 * YCSB's scrambled Zipfian (its default request distribution): a Zipfian rank over ten billion
 * items, hashed with 64-bit FNV-1a and reduced modulo the key count, so that the popular keys
 * are spread over the key space instead of being its first keys, and the key count can grow
 * without recomputing zeta. Skew is YCSB's 0.99.
 *
 * <p>Thread-safety: immutable.
 */
public final class ScrambledZipfianChooser implements KeyChooser {

    /** YCSB's {@code ScrambledZipfianGenerator.ITEM_COUNT}. */
    public static final long ITEMS = 10_000_000_000L;
    /** zeta(ITEMS, 0.99), YCSB's precomputed {@code ZETAN}. */
    public static final double ZETAN = 26.46902820178302;

    private static final ZipfianGenerator RANKS = new ZipfianGenerator(ITEMS, ZipfianGenerator.DEFAULT_THETA, ZETAN);

    @Override
    public long next(SplittableRandom random, long count) {
        return keyOf(RANKS.rank(random.nextDouble()), count);
    }

    /** The key that rank {@code rank} lands on among {@code count} keys. */
    public static long keyOf(long rank, long count) {
        return Math.floorMod(fnv64(rank), count);
    }

    /** The Zipfian ranks behind the keys. */
    public static ZipfianGenerator ranks() {
        return RANKS;
    }

    /** FNV-1a over the eight little-endian bytes of {@code value} (as YCSB's {@code fnvhash64}). */
    public static long fnv64(long value) {
        long hash = 0xCBF29CE484222325L;
        for (int i = 0; i < 8; i++) {
            hash ^= value & 0xff;
            hash *= 1099511628211L;
            value >>= 8;
        }
        return Math.abs(hash);
    }
}
