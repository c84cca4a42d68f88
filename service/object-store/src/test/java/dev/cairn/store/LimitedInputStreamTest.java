package dev.cairn.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LimitedInputStreamTest {
    private static final class Tracked extends ByteArrayInputStream {
        boolean closed;

        Tracked(String s) {
            super(s.getBytes(StandardCharsets.US_ASCII));
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void partsReadInTurnAndLeaveTheWholeOpen() throws IOException {
        Tracked whole = new Tracked("abcdefgh");
        try (InputStream first = LimitedInputStream.part(whole, 3)) {
            assertArrayEquals("abc".getBytes(StandardCharsets.US_ASCII), first.readAllBytes());
            assertEquals(-1, first.read());
        }
        try (InputStream second = LimitedInputStream.part(whole, 10)) {
            assertEquals('d', second.read());
            assertEquals(3, second.skip(3));
            assertEquals(1, second.available());
        }
        assertFalse(whole.closed);
    }

    @Test
    void aLimitedViewClosesWhatItReads() throws IOException {
        Tracked whole = new Tracked("abcdefgh");
        try (InputStream view = new LimitedInputStream(whole, 5)) {
            assertEquals(5, view.readAllBytes().length);
        }
        assertTrue(whole.closed);
    }
}
