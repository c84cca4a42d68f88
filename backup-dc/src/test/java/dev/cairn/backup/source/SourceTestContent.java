package dev.cairn.backup.source;

import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** Content for the source tests: bytes with their digests. */
public final class SourceTestContent {
    private SourceTestContent() {
    }

    public static String sha256(byte[] b) {
        return Hex.encode(digest("SHA-256").digest(b));
    }

    public static ContentSource of(byte[] b) {
        return BytesContent.of(b);
    }

    /** Reads the stream whole and returns its SHA-256. */
    public static String sha256Of(InputStream in) throws IOException {
        MessageDigest d = digest("SHA-256");
        try (in) {
            byte[] buf = new byte[64 * 1024];
            int n;
            while ((n = in.read(buf)) > 0) {
                d.update(buf, 0, n);
            }
        }
        return Hex.encode(d.digest());
    }

    private static MessageDigest digest(String name) {
        try {
            return MessageDigest.getInstance(name);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
