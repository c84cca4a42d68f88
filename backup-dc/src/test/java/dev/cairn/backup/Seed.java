package dev.cairn.backup;

import dev.cairn.store.BytesContent;
import dev.cairn.store.ContentSource;
import dev.cairn.store.Hex;
import dev.cairn.store.ObjectAttributes;
import dev.cairn.store.ObjectInfo;
import dev.cairn.store.ObjectStore;
import dev.cairn.store.PutRequest;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.Map;
import java.util.Random;

/** Test data written into stores: seeded bytes, attributes and user metadata that a restore must keep. */
public final class Seed {
    private Seed() {
    }

    public static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    public static String hash(String algorithm, byte[] bytes) {
        try {
            return Hex.encode(MessageDigest.getInstance(algorithm).digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    public static ContentSource content(byte[] bytes) {
        return BytesContent.of(bytes);
    }

    public static ObjectAttributes attributes(int i) {
        return new ObjectAttributes(i % 2 == 0 ? "image/jpeg" : "image/png", "max-age=" + i, null,
                i % 5 == 0 ? "gzip" : null, null, null, Map.of("camera", "cam-" + (i % 7), "n", Integer.toString(i)));
    }

    public static ObjectInfo put(ObjectStore store, String bucket, String key, byte[] bytes, ObjectAttributes attrs)
            throws IOException {
        ContentSource c = content(bytes);
        return store.putObject(PutRequest.of(bucket, key, c, c.md5()).withAttributes(attrs));
    }
}
