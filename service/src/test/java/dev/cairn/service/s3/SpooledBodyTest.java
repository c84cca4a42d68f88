package dev.cairn.service.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.store.Hex;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpooledBodyTest {
    private static final long THRESHOLD = 64 << 10;

    @TempDir
    Path spool;

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        new Random(n).nextBytes(b);
        return b;
    }

    /** Hands out at most 1000 bytes a read, as a socket does. */
    private static InputStream trickle(byte[] data) {
        return new FilterInputStream(new ByteArrayInputStream(data)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1000));
            }
        };
    }

    private static String hex(String algorithm, byte[] data) throws Exception {
        return Hex.encode(MessageDigest.getInstance(algorithm).digest(data));
    }

    @Test
    void aDeclaredSmallBodyIsHeldAsItsOwnArrayWithItsDigests() throws Exception {
        byte[] data = bytes(20 << 10);
        try (SpooledBody body = SpooledBody.read(trickle(data), data.length, 1 << 30, THRESHOLD, spool, List.of())) {
            assertEquals(data.length, body.size());
            assertEquals(hex("SHA-256", data), body.sha256());
            assertEquals(hex("MD5", data), body.md5());
            assertArrayEquals(data, body.inMemory());
            assertArrayEquals(data, body.open().readAllBytes());
        }
    }

    @Test
    void anUndeclaredOrLargeBodyGivesTheSameDigests() throws Exception {
        for (int size : new int[] {0, 1, 20 << 10, (int) THRESHOLD + 1, 300 << 10}) {
            byte[] data = bytes(size);
            for (long declared : new long[] {-1, size}) {
                try (SpooledBody body = SpooledBody.read(trickle(data), declared, 1 << 30, THRESHOLD, spool, List.of())) {
                    assertEquals(hex("SHA-256", data), body.sha256(), size + " bytes, declared " + declared);
                    assertEquals(hex("MD5", data), body.md5());
                    assertArrayEquals(data, body.open().readAllBytes());
                    if (size > THRESHOLD) {
                        assertNull(body.inMemory());
                    } else {
                        assertNotNull(body.inMemory());
                    }
                }
            }
        }
    }

    @Test
    void aBodyShorterOrLongerThanDeclaredIsIncomplete() {
        byte[] data = bytes(5000);
        S3Exception shorter = assertThrows(S3Exception.class,
                () -> SpooledBody.read(trickle(data), 6000, 1 << 30, THRESHOLD, spool, List.of()));
        assertEquals("IncompleteBody", shorter.code());
        S3Exception longer = assertThrows(S3Exception.class,
                () -> SpooledBody.read(trickle(data), 4000, 1 << 30, THRESHOLD, spool, List.of()));
        assertEquals("IncompleteBody", longer.code());
    }

    @Test
    void aBodyPastTheLimitIsTooLarge() {
        byte[] data = bytes(5000);
        S3Exception e = assertThrows(S3Exception.class,
                () -> SpooledBody.read(trickle(data), 4000, 4500, THRESHOLD, spool, List.of()));
        assertEquals("EntityTooLarge", e.code());
    }
}
