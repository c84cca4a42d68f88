package dev.cairn.store;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Message digests every JDK has (MD5, SHA-256). Stateless; thread-safe. */
final class Digests {

    private Digests() {
    }

    static MessageDigest of(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is missing from this JDK", e);
        }
    }
}
