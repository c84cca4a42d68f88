package dev.cairn.service.bench;

import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Generated object content for {@link MemoryLoad}: a stream of pseudo-random bytes from a seed,
 * any position computable, so uploads need no memory and reads can be checked. A content writes
 * itself whole, or in consecutive slices (parts), each with its MD5. Not thread-safe.
 */
final class Content implements HttpConn.BodyWriter {
    static final long SMALL_SEED = 1;
    static final long LARGE_SEED = 2;
    private static final int BLOCK = 64 * 1024;

    private final long seed;
    private final long size;
    private final MessageDigest md5 = md5();
    private long position;

    Content(long seed, long size) {
        this.seed = seed;
        this.size = size;
    }

    @Override
    public void writeTo(OutputStream out) throws IOException {
        position = write(out, seed, position, size - position, md5);
    }

    String md5Hex() {
        return hex(md5.digest());
    }

    /** The next {@code length} bytes as a body of their own. */
    Slice slice(long length) {
        Slice s = new Slice(position, length);
        position += length;
        return s;
    }

    final class Slice implements HttpConn.BodyWriter {
        private final long start;
        private final long length;
        private final MessageDigest digest = Content.md5();
        private byte[] md5;

        private Slice(long start, long length) {
            this.start = start;
            this.length = length;
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            write(out, seed, start, length, digest);
            md5 = digest.digest();
        }

        byte[] md5() {
            return md5;
        }

        String md5Hex() {
            return hex(md5);
        }
    }

    private static long write(OutputStream out, long seed, long from, long length, MessageDigest md5) throws IOException {
        byte[] buf = new byte[BLOCK];
        long p = from;
        long end = from + length;
        while (p < end) {
            int n = (int) Math.min(BLOCK, end - p);
            fill(seed, p, buf, n);
            md5.update(buf, 0, n);
            out.write(buf, 0, n);
            p += n;
        }
        return p;
    }

    /** Bytes [{@code position}, {@code position + n}) of the content of {@code seed}. */
    static void fill(long seed, long position, byte[] buf, int n) {
        for (int i = 0; i < n; i++) {
            long p = position + i;
            if ((p & 7) == 0 && i + 8 <= n) {
                long w = word(seed, p >>> 3);
                for (int k = 0; k < 8; k++) {
                    buf[i + k] = (byte) (w >>> (8 * k));
                }
                i += 7;
            } else {
                buf[i] = (byte) (word(seed, p >>> 3) >>> (8 * (p & 7)));
            }
        }
    }

    private static long word(long seed, long index) {
        long z = seed * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Checks bytes read from the start of a content against it. */
    static final class Checker {
        private final long seed;
        private final byte[] expected = new byte[BLOCK];
        private long position;

        Checker(long seed) {
            this.seed = seed;
        }

        void update(byte[] b, int n) throws IOException {
            fill(seed, position, expected, n);
            if (!java.util.Arrays.equals(b, 0, n, expected, 0, n)) {
                throw new IOException("content differs within bytes " + position + ".." + (position + n));
            }
            position += n;
        }
    }

    static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder(b.length * 2);
        for (byte x : b) {
            s.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return s.toString();
    }
}
