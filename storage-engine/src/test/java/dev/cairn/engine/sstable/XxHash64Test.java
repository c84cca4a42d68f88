package dev.cairn.engine.sstable;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class XxHash64Test {

    /** Reference values from the xxHash library (XXH64, seed 0), covering every tail path. */
    @Test
    void matchesTheReferenceImplementation() {
        String base = "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTU";
        assertEquals(0xef46db3751d8e999L, hash(""));
        assertEquals(0xd24ec4f1a98c6e5bL, hash("a"));
        assertEquals(0x44bc2cf5ad770999L, hash("abc"));
        assertEquals(0x97ee4fe4a0ff4dfaL, hash(base.substring(0, 7)));
        assertEquals(0xe4ba22a49ad89d3fL, hash(base.substring(0, 8)));
        assertEquals(0x862e292326b8a4fcL, hash(base.substring(0, 12)));
        assertEquals(0x80adfc1d42020f39L, hash(base.substring(0, 31)));
        assertEquals(0xbf7c9dbe16b5c6e2L, hash(base.substring(0, 32)));
        assertEquals(0xe97423e605e2f3b4L, hash(base.substring(0, 33)));
        assertEquals(0x8fbd1923674fa07bL, hash(base.substring(0, 63)));
        assertEquals(0x620b23d03beef530L, hash(base.substring(0, 64)));
        assertEquals(0xfd3eb87a5d2d9f34L, hash(base.substring(0, 67)));
    }

    @Test
    void hashesASliceLikeACopy() {
        byte[] data = "xxhello worldyy".getBytes(StandardCharsets.US_ASCII);
        assertEquals(hash("hello world"), XxHash64.hash(data, 2, 11));
    }

    private static long hash(String s) {
        return XxHash64.hash(s.getBytes(StandardCharsets.US_ASCII));
    }
}
