package dev.cairn.backup.restore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cairn.store.ContentSource;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ContentReadAheadTest {
    /** Content of {@code length} bytes of {@code fill}; {@code failure} thrown by open instead, when set. */
    private record Bytes(int length, byte fill, IOException failure, AtomicInteger opens) implements ContentSource {
        Bytes(int length, byte fill) {
            this(length, fill, null, new AtomicInteger());
        }

        @Override
        public String sha256() {
            return "sha-" + fill + "-" + length;
        }

        @Override
        public long size() {
            return length;
        }

        @Override
        public InputStream open() throws IOException {
            opens.incrementAndGet();
            if (failure != null) {
                throw failure;
            }
            byte[] b = new byte[length];
            Arrays.fill(b, fill);
            return new ByteArrayInputStream(b);
        }
    }

    @Test
    void aKeysContentsAreReadOnceAheadAndServedFromMemory() throws IOException {
        List<ContentSource> contents = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            contents.add(new Bytes(1000 + i, (byte) i));
        }
        contents.add(null);
        try (ContentReadAhead readAhead = new ContentReadAhead();
             ContentReadAhead.Held held = readAhead.readAhead(contents)) {
            assertEquals(contents.size(), held.contents.size());
            assertNull(held.contents.get(20), "a delete marker has no content");
            for (int i = 0; i < 20; i++) {
                ContentSource c = held.contents.get(i);
                assertNotSame(contents.get(i), c);
                assertEquals(contents.get(i).sha256(), c.sha256());
                byte[] want = new byte[1000 + i];
                Arrays.fill(want, (byte) i);
                assertArrayEquals(want, c.open().readAllBytes());
                assertArrayEquals(want, c.open().readAllBytes(), "opened again: the same bytes");
                assertEquals(1, ((Bytes) contents.get(i)).opens().get(), "the archive is read once");
            }
        }
    }

    @Test
    void aFailedReadFailsTheStoresOpenWithItsError() {
        IOException broken = new IOException("archive blob abc: SHA-256 mismatch");
        try (ContentReadAhead readAhead = new ContentReadAhead();
             ContentReadAhead.Held held = readAhead.readAhead(List.of(new Bytes(10, (byte) 1, broken, new AtomicInteger())))) {
            IOException e = assertThrows(IOException.class, () -> held.contents.get(0).open());
            assertSame(broken, e);
        }
    }

    @Test
    void aContentOverTheLimitIsStreamedAsGiven() {
        ContentSource big = new Bytes(ContentReadAhead.MAX_CONTENT_BYTES + 1, (byte) 3);
        try (ContentReadAhead readAhead = new ContentReadAhead();
             ContentReadAhead.Held held = readAhead.readAhead(List.of(big))) {
            assertSame(big, held.contents.get(0));
            assertEquals(0, ((Bytes) big).opens().get());
        }
    }
}
