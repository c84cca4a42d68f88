package dev.cairn.store;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.security.MessageDigest;

/** Test content from a byte array, digests computed; the backup job's tests use it too. */
public record BytesContent(byte[] bytes, String sha256, String md5) implements ContentSource {

    public static BytesContent of(byte[] bytes) {
        return new BytesContent(bytes, hash("SHA-256", bytes), hash("MD5", bytes));
    }

    static BytesContent of(String s) {
        return of(s.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    static String hash(String algorithm, byte[] bytes) {
        try {
            return Hex.encode(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Override
    public long size() {
        return bytes.length;
    }

    @Override
    public InputStream open() {
        return new ByteArrayInputStream(bytes);
    }
}
