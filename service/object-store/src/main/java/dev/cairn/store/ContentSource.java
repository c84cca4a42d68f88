package dev.cairn.store;

import java.io.IOException;
import java.io.InputStream;

/**
 * Content offered to a store, whose digest is already known. A store that already holds content
 * with this SHA-256 does not read it again.
 */
public interface ContentSource {

    /** Lower-case hex SHA-256 of exactly the bytes {@link #open()} yields. */
    String sha256();

    long size();

    /** Lower-case hex MD5 of the bytes when already known, else null. */
    default String md5() {
        return null;
    }

    /** The bytes themselves when they are in memory already, else null; callers must not change them. */
    default byte[] inMemory() {
        return null;
    }

    /** A fresh stream over the bytes; may be called more than once. */
    InputStream open() throws IOException;

    /** The MD5 of the bytes: the known one, else computed by reading them once. */
    static String md5Of(ContentSource content) throws IOException {
        if (content.md5() != null) {
            return content.md5();
        }
        java.security.MessageDigest md5 = Digests.of("MD5");
        try (InputStream in = content.open()) {
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = in.read(buf)) > 0) {
                md5.update(buf, 0, n);
            }
        }
        return Hex.encode(md5.digest());
    }
}
