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

    /** Memory up to the threshold, with a budget that never runs out in these tests. */
    private Spool spool() {
        return new Spool(spool, THRESHOLD, new MemoryBudget(1L << 40));
    }

    private long spoolFiles() throws IOException {
        try (var files = java.nio.file.Files.list(spool)) {
            return files.count();
        }
    }

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
        try (SpooledBody body = SpooledBody.read(trickle(data), data.length, 1 << 30, spool(), List.of())) {
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
                try (SpooledBody body = SpooledBody.read(trickle(data), declared, 1 << 30, spool(), List.of())) {
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
                () -> SpooledBody.read(trickle(data), 6000, 1 << 30, spool(), List.of()));
        assertEquals("IncompleteBody", shorter.code());
        S3Exception longer = assertThrows(S3Exception.class,
                () -> SpooledBody.read(trickle(data), 4000, 1 << 30, spool(), List.of()));
        assertEquals("IncompleteBody", longer.code());
    }

    @Test
    void aBodyPastTheLimitIsTooLarge() {
        byte[] data = bytes(5000);
        S3Exception e = assertThrows(S3Exception.class,
                () -> SpooledBody.read(trickle(data), 4000, 4500, spool(), List.of()));
        assertEquals("EntityTooLarge", e.code());
    }

    @Test
    void aBodyThatFindsTheBudgetSpentSpoolsToAFileByteExactAndClosingGivesMemoryBack() throws Exception {
        MemoryBudget budget = new MemoryBudget(30 << 10);
        Spool tight = new Spool(spool, THRESHOLD, budget);
        byte[] first = bytes(20 << 10);
        byte[] second = bytes((20 << 10) + 1);
        try (SpooledBody held = SpooledBody.read(trickle(first), first.length, 1 << 30, tight, List.of())) {
            assertArrayEquals(first, held.inMemory());
            assertEquals(first.length, budget.used());
            try (SpooledBody spooled = SpooledBody.read(trickle(second), second.length, 1 << 30, tight, List.of())) {
                assertNull(spooled.inMemory());
                assertEquals(1, spoolFiles());
                assertArrayEquals(second, spooled.open().readAllBytes());
                assertEquals(hex("SHA-256", second), spooled.sha256());
                assertEquals(hex("MD5", second), spooled.md5());
                assertEquals(first.length, budget.used());
                assertEquals(1, budget.refusals());
            }
            assertEquals(0, spoolFiles());
        }
        assertEquals(0, budget.used());
        try (SpooledBody again = SpooledBody.read(trickle(second), second.length, 1 << 30, tight, List.of())) {
            assertArrayEquals(second, again.inMemory());
        }
        assertEquals(0, budget.used());
    }

    @Test
    void aBodyOfUnknownLengthReservesTheThresholdAndKeepsOnlyItsSize() throws Exception {
        MemoryBudget budget = new MemoryBudget(THRESHOLD);
        Spool tight = new Spool(spool, THRESHOLD, budget);
        byte[] small = bytes(1000);
        try (SpooledBody body = SpooledBody.read(trickle(small), -1, 1 << 30, tight, List.of())) {
            assertArrayEquals(small, body.inMemory());
            assertEquals(small.length, budget.used());
            // The threshold is no longer free whole: the next body of unknown length goes to a file.
            try (SpooledBody next = SpooledBody.read(trickle(small), -1, 1 << 30, tight, List.of())) {
                assertNull(next.inMemory());
                assertArrayEquals(small, next.open().readAllBytes());
            }
        }
        byte[] large = bytes((int) THRESHOLD + 1);
        try (SpooledBody body = SpooledBody.read(trickle(large), -1, 1 << 30, tight, List.of())) {
            assertNull(body.inMemory());
            assertEquals(0, budget.used(), "a body that went to a file holds no memory");
            assertArrayEquals(large, body.open().readAllBytes());
        }
        assertEquals(0, budget.used());
    }

    @Test
    void aBodyDeclaredLargerThanTheThresholdGoesToAFileWithoutTouchingTheBudget() throws Exception {
        MemoryBudget budget = new MemoryBudget(1L << 30);
        byte[] data = bytes((int) THRESHOLD * 2);
        try (SpooledBody body = SpooledBody.read(trickle(data), data.length, 1 << 30, new Spool(spool, THRESHOLD, budget),
                List.of())) {
            assertNull(body.inMemory());
            assertEquals(0, budget.used());
            assertArrayEquals(data, body.open().readAllBytes());
        }
        assertEquals(0, budget.refusals());
    }

    @Test
    void aFailedReadGivesItsReservationBackAndLeavesNoFile() throws Exception {
        MemoryBudget budget = new MemoryBudget(1L << 30);
        Spool tight = new Spool(spool, THRESHOLD, budget);
        byte[] data = bytes(5000);
        assertThrows(S3Exception.class, () -> SpooledBody.read(trickle(data), 6000, 1 << 30, tight, List.of()));
        assertThrows(S3Exception.class, () -> SpooledBody.read(trickle(bytes(100_000)), -1, 50_000, tight, List.of()));
        assertEquals(0, budget.used());
        assertEquals(0, spoolFiles());
    }

    @Test
    void aBudgetRefusesWhatWouldPassItsCapacity() {
        MemoryBudget budget = new MemoryBudget(100);
        assertEquals(true, budget.tryReserve(60));
        assertEquals(false, budget.tryReserve(41));
        assertEquals(true, budget.tryReserve(40));
        assertEquals(false, budget.tryReserve(1));
        budget.release(100);
        assertEquals(0, budget.used());
        assertEquals(2, budget.refusals());
        assertThrows(IllegalStateException.class, () -> budget.release(1));
    }
}
