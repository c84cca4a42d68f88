package dev.cairn.store;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Version ids (docs/format/versions.md, "Version ids"): a 12-byte sort id — the inverted write
 * time in microseconds, then 4 random bytes — shown as 16 URL-safe characters whose ASCII order is
 * the bytes' order, so a key's versions sort newest first both ways. Stateless; thread-safe.
 */
public final class VersionId {
    /** The id of the version written while a bucket was unversioned or suspended. */
    public static final String NULL = "null";
    public static final int SORT_BYTES = 12;
    public static final int CHARS = 16;
    private static final String ALPHABET = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

    private VersionId() {
    }

    /** A sort id for a version written at {@code micros}. */
    public static byte[] sortAt(long micros) {
        byte[] b = new byte[SORT_BYTES];
        long inverted = Long.MAX_VALUE - micros;
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (inverted >>> (56 - 8 * i));
        }
        int random = ThreadLocalRandom.current().nextInt();
        for (int i = 0; i < 4; i++) {
            b[8 + i] = (byte) (random >>> (24 - 8 * i));
        }
        return b;
    }

    /** The write time, in microseconds, a sort id records. */
    public static long micros(byte[] sort) {
        long inverted = 0;
        for (int i = 0; i < 8; i++) {
            inverted = (inverted << 8) | (sort[i] & 0xFF);
        }
        return Long.MAX_VALUE - inverted;
    }

    public static String encode(byte[] sort) {
        char[] out = new char[CHARS];
        int bits = 0;
        int acc = 0;
        int n = 0;
        for (byte x : sort) {
            acc = (acc << 8) | (x & 0xFF);
            bits += 8;
            while (bits >= 6) {
                bits -= 6;
                out[n++] = ALPHABET.charAt((acc >>> bits) & 63);
            }
        }
        return new String(out);
    }

    /** The sort id of a version id, or null when it is not one this store hands out. */
    public static byte[] decode(String id) {
        if (id == null || id.length() != CHARS) {
            return null;
        }
        byte[] out = new byte[SORT_BYTES];
        int bits = 0;
        int acc = 0;
        int n = 0;
        for (int i = 0; i < CHARS; i++) {
            int v = ALPHABET.indexOf(id.charAt(i));
            if (v < 0) {
                return null;
            }
            acc = (acc << 6) | v;
            bits += 6;
            if (bits >= 8) {
                bits -= 8;
                out[n++] = (byte) (acc >>> bits);
            }
        }
        return out;
    }

    /** Whether {@code id} is {@code null} or a version id of this store's form. */
    public static boolean isWellFormed(String id) {
        return NULL.equals(id) || decode(id) != null;
    }
}
