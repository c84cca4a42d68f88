package dev.cairn.store.embedded;

import dev.cairn.store.Hex;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The key layout of the embedded store's tables (docs/object-stores.md, "Embedded layout"): keys sort
 * as unsigned bytes, so a bucket's objects and uploads are one range each, sorted by key in UTF-8
 * order. Stateless; thread-safe.
 */
final class EmbeddedKeys {
    /** DO NOT CHANGE: embedded in on-disk data (refs table). */
    static final byte REF_OBJECT = 'o';
    /** DO NOT CHANGE: embedded in on-disk data (refs table). */
    static final byte REF_PART = 'p';
    static final int SHA_BYTES = 32;
    static final int UPLOAD_ID_CHARS = 32;

    private EmbeddedKeys() {
    }

    /** Bucket, 0x00: the start of every key of the bucket's objects and uploads. */
    static byte[] bucketPrefix(String bucket) {
        return concat(bytes(bucket), new byte[] {0});
    }

    static byte[] objectKey(String bucket, String key) {
        return concat(bucketPrefix(bucket), bytes(key));
    }

    static byte[] uploadKey(String bucket, String key, String uploadId) {
        return concat(concat(objectKey(bucket, key), new byte[] {0}), bytes(uploadId));
    }

    static byte[] partKey(String uploadId, int partNumber) {
        return ByteBuffer.allocate(UPLOAD_ID_CHARS + 4).put(bytes(uploadId)).putInt(partNumber).array();
    }

    static byte[] chunkKey(String sha, int index) {
        return ByteBuffer.allocate(SHA_BYTES + 4).put(Hex.decode(sha)).putInt(index).array();
    }


    /** Whether {@code id} has the form of the ids this store hands out (32 lower-case hex). */
    static boolean isUploadId(String id) {
        return id != null && id.length() == UPLOAD_ID_CHARS && Hex.isLowerHex(id);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** The smallest key greater than every key starting with {@code prefix}; null if none. */
    static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] next = Arrays.copyOf(prefix, i + 1);
                next[i]++;
                return next;
            }
        }
        return null;
    }
}
