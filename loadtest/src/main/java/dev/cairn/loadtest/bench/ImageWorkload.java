package dev.cairn.loadtest.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The objects of the engine benchmark: object {@code i} (0-based) has a key shaped like an image
 * path, {@code img/<i / 1600, five digits>/<26 random base-32 characters>.jpg} (40 bytes), and in
 * each version (0 = load, 1 = overwrite, ...) a value whose size follows
 * {@link ImageSizeDistribution} and whose bytes are incompressible. Everything is a pure function
 * of (seed, index, version), so any object can be regenerated to verify a read.
 *
 * <p>Thread-safety: immutable.
 */
public final class ImageWorkload {

    /** Objects per directory in the key space, as an upload tool that shards by count would. */
    public static final int OBJECTS_PER_DIRECTORY = 1600;
    /** Every key's length in bytes. */
    public static final int KEY_BYTES = 40;

    private static final byte[] BASE32 = "abcdefghijklmnopqrstuvwxyz234567".getBytes(StandardCharsets.US_ASCII);
    private static final int RANDOM_CHARS = 26;
    private static final long KEY_SALT = 0x6b65795f73616c74L;
    private static final long SIZE_SALT = 0x73697a655f73616cL;
    private static final long CONTENT_SALT = 0x636f6e74656e7421L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final long seed;
    private final ImageSizeDistribution sizes;

    public ImageWorkload(long seed, ImageSizeDistribution sizes) {
        this.seed = seed;
        this.sizes = sizes;
    }

    public long seed() {
        return seed;
    }

    public ImageSizeDistribution sizes() {
        return sizes;
    }

    public byte[] key(long index) {
        long directory = index / OBJECTS_PER_DIRECTORY;
        if (index < 0 || directory > 99_999) {
            throw new IllegalArgumentException("object index out of range: " + index);
        }
        byte[] key = new byte[KEY_BYTES];
        int at = put(key, 0, "img/");
        for (int i = 4; i >= 0; i--) {
            key[at + i] = (byte) ('0' + directory % 10);
            directory /= 10;
        }
        at += 5;
        key[at++] = '/';
        long bits = 0;
        for (int i = 0; i < RANDOM_CHARS; i++) {
            if (i % 12 == 0) {
                bits = mix(seed, index, i / 12, KEY_SALT);
            }
            key[at++] = BASE32[(int) (bits & 31)];
            bits >>>= 5;
        }
        put(key, at, ".jpg");
        return key;
    }

    public int valueSize(long index, int version) {
        long bits = mix(seed, index, version, SIZE_SALT);
        double u = ((bits >>> 11) + 0.5) * 0x1.0p-53;
        return sizes.sizeAt(u);
    }

    /** The value of object {@code index} in {@code version}. */
    public byte[] value(long index, int version) {
        byte[] value = new byte[valueSize(index, version)];
        long state = mix(seed, index, version, CONTENT_SALT);
        int whole = value.length & ~7;
        for (int i = 0; i < whole; i += 8) {
            state += 0x9e3779b97f4a7c15L;
            LONGS.set(value, i, finish(state));
        }
        if (whole < value.length) {
            state += 0x9e3779b97f4a7c15L;
            long last = finish(state);
            for (int i = whole; i < value.length; i++) {
                value[i] = (byte) last;
                last >>>= 8;
            }
        }
        return value;
    }

    /**
     * Whether {@code value} is object {@code index}'s value in {@code version}, judged by its
     * length and first eight bytes: cheap enough to check every read of a timed phase.
     */
    public boolean looksLike(byte[] value, long index, int version) {
        if (value == null || value.length != valueSize(index, version)) {
            return false;
        }
        if (value.length < 8) {
            return java.util.Arrays.equals(value, value(index, version));
        }
        long state = mix(seed, index, version, CONTENT_SALT) + 0x9e3779b97f4a7c15L;
        return (long) LONGS.get(value, 0) == finish(state);
    }

    private static int put(byte[] into, int at, String ascii) {
        byte[] bytes = ascii.getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(bytes, 0, into, at, bytes.length);
        return at + bytes.length;
    }

    private static long mix(long seed, long index, long part, long salt) {
        long h = finish(seed ^ salt);
        h = finish(h + index * 0x9e3779b97f4a7c15L);
        return finish(h + part * 0xc2b2ae3d27d4eb4fL);
    }

    /** SplitMix64's output function: a bijection that turns a counter into a random-looking long. */
    private static long finish(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
