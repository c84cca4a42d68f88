package dev.cairn.engine.sstable;

/**
 * One bloom filter over the distinct filter keys of a table (Bloom 1970), probed by double
 * hashing (Kirsch and Mitzenmacher, "Less Hashing, Same Performance", 2006): probe {@code i}
 * sets bit {@code (h1 + i * h2) mod m}, where {@code h1} and {@code h2} are the low and high 32
 * bits of the key's XXH64. Encoded as the bit array (bit {@code b} is bit {@code b & 7} of byte
 * {@code b >>> 3}) followed by the probe count as one byte. DO NOT CHANGE the hash, the probing or
 * the encoding: embedded in on-disk data. Immutable and thread-safe once built.
 */
final class BloomFilter {
    private static final int MIN_BITS = 64;
    private static final int MAX_PROBES = 30;

    private final byte[] encoded;
    private final long bitCount;
    private final int probes;

    private BloomFilter(byte[] encoded) {
        this.encoded = encoded;
        this.bitCount = (long) (encoded.length - 1) * 8;
        this.probes = encoded[encoded.length - 1] & 0xFF;
    }

    /** Builds the filter block contents for the hashes {@code hashes[0, count)}. */
    static byte[] build(long[] hashes, int count, int bitsPerKey) {
        long bits = Math.max(MIN_BITS, (long) count * bitsPerKey);
        long bytes = (bits + 7) / 8;
        if (bytes > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException("bloom filter of " + bytes + " bytes is too large");
        }
        byte[] encoded = new byte[(int) bytes + 1];
        long m = bytes * 8;
        int k = probeCount(bitsPerKey);
        encoded[(int) bytes] = (byte) k;
        for (int n = 0; n < count; n++) {
            long h1 = hashes[n] & 0xFFFFFFFFL;
            long h2 = hashes[n] >>> 32;
            for (int i = 0; i < k; i++) {
                long bit = (h1 + i * h2) % m;
                encoded[(int) (bit >>> 3)] |= (byte) (1 << (bit & 7));
            }
        }
        return encoded;
    }

    /** ln 2 * bits per key minimises the false-positive rate. */
    static int probeCount(int bitsPerKey) {
        return Math.max(1, Math.min(MAX_PROBES, (int) Math.round(bitsPerKey * 0.69)));
    }

    /** Parses filter block contents; null when they cannot be a filter. */
    static BloomFilter decode(byte[] contents) {
        if (contents.length < 2) {
            return null;
        }
        int k = contents[contents.length - 1] & 0xFF;
        if (k < 1 || k > MAX_PROBES) {
            return null;
        }
        return new BloomFilter(contents);
    }

    static long hash(byte[] filterKey) {
        return XxHash64.hash(filterKey);
    }

    boolean mayContain(byte[] filterKey) {
        long h = hash(filterKey);
        long h1 = h & 0xFFFFFFFFL;
        long h2 = h >>> 32;
        for (int i = 0; i < probes; i++) {
            long bit = (h1 + i * h2) % bitCount;
            if ((encoded[(int) (bit >>> 3)] & (1 << (bit & 7))) == 0) {
                return false;
            }
        }
        return true;
    }

    int probes() {
        return probes;
    }

    long bitCount() {
        return bitCount;
    }

    int sizeBytes() {
        return encoded.length;
    }
}
